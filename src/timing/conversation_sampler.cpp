#include "timing/conversation_sampler.hpp"

#include <numeric>

#include "core/rng.hpp"

namespace inferperf::timing {

ConversationSampler::ConversationSampler(SamplingStrategy strategy, std::size_t size,
                                         std::mt19937_64 rng)
    : strategy_(strategy), order_(size), pos_(0), rng_(std::move(rng)) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  if (strategy_ == SamplingStrategy::kShuffle) pos_ = size;  // shuffled on first use
}

ConversationSampler::ConversationSampler(SamplingStrategy strategy,
                                         std::vector<std::size_t> indices, std::mt19937_64 rng)
    : strategy_(strategy), order_(std::move(indices)), pos_(0), rng_(std::move(rng)) {
  if (strategy_ == SamplingStrategy::kShuffle) pos_ = order_.size();
}

std::size_t ConversationSampler::next() {
  if (order_.empty()) return 0;
  switch (strategy_) {
    case SamplingStrategy::kSequential:
      return order_[pos_++ % order_.size()];
    case SamplingStrategy::kRandom:
      return order_[static_cast<std::size_t>(core::uniform_index(rng_, order_.size()))];
    case SamplingStrategy::kShuffle:
      break;
  }
  if (pos_ >= order_.size()) {
    core::shuffle(order_, rng_);
    pos_ = 0;
  }
  return order_[pos_++];
}

}  // namespace inferperf::timing
