#include "timing/conversation_sampler.hpp"

#include "core/rng.hpp"

#include <algorithm>
#include <numeric>

namespace inferperf::timing {

ShuffleSampler::ShuffleSampler(std::size_t size, std::mt19937_64 rng)
    : order_(size), pos_(size), rng_(std::move(rng)) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
}

std::size_t ShuffleSampler::next() {
  if (order_.empty()) return 0;
  if (pos_ >= order_.size()) {
    core::shuffle(order_, rng_);
    pos_ = 0;
  }
  return order_[pos_++];
}

}  // namespace inferperf::timing
