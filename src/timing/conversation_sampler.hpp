// Picks which dataset conversation each new session uses (--dataset-sampling-strategy):
// sequential (wrapping around), random (with replacement) or shuffle (a permutation, re-shuffled
// each time it is used up; AIPerf's default for synthetic data). It draws from a list of
// conversation indices: all of them, or only the roots when a dataset has child conversations.
#pragma once
#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace inferperf::timing {

enum class SamplingStrategy { kSequential, kRandom, kShuffle };

class ConversationSampler {
 public:
  ConversationSampler(SamplingStrategy strategy, std::size_t size, std::mt19937_64 rng);
  // Draws only from `indices` (the root conversations: children are started by their parents).
  ConversationSampler(SamplingStrategy strategy, std::vector<std::size_t> indices,
                      std::mt19937_64 rng);
  std::size_t next();

 private:
  SamplingStrategy strategy_;
  std::vector<std::size_t> order_;
  std::size_t pos_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace inferperf::timing
