// Picks which dataset conversation each new session uses (AIPerf "shuffle" for synthetic data:
// a random permutation, re-shuffled each time it is used up).
#pragma once
#include <cstddef>
#include <random>
#include <vector>

namespace inferperf::timing {

class ShuffleSampler {
 public:
  ShuffleSampler(std::size_t size, std::mt19937_64 rng);
  std::size_t next();

 private:
  std::vector<std::size_t> order_;
  std::size_t pos_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace inferperf::timing
