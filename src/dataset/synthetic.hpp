// Synthetic prompts: conversations whose prompt lengths follow the configured ISL distribution.
#pragma once
#include <optional>
#include <string>

#include "core/rng.hpp"
#include "dataset/conversation.hpp"
#include "dataset/sequence_distribution.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

struct SyntheticOptions {
  int num_conversations = 100;
  int isl_mean = 550;
  double isl_stddev = 0.0;
  std::optional<int> osl_mean;
  double osl_stddev = 0.0;
  int prompt_batch_size = 1;     // texts per turn
  int prefix_pool_size = 0;      // --num-prefix-prompts
  int prefix_length = 0;         // --prefix-prompt-length (tokens)
  int shared_system_length = 0;  // --shared-system-prompt-length (tokens, 0 = none)
  int user_context_length = 0;   // --user-context-prompt-length (tokens, 0 = none)
  std::optional<SequenceDistribution> sequence_distribution;  // --seq-dist
};

// Until real tokenizers exist, one prompt token is one word of at most four letters from a fixed
// vocabulary preceded by a space: that is exactly one token for the mock server's chunk counter and
// close to one for common BPE vocabularies.
// With a tokenizer, every prompt is adjusted word by word until it has exactly the sampled number
// of tokens for that tokenizer.
Dataset compose_synthetic(const SyntheticOptions& options, const core::RngFactory& rngs,
                          const tokenizer::Tokenizer* tok = nullptr);

std::string generate_prompt(int tokens, std::mt19937_64& rng);
std::string generate_exact_prompt(int tokens, std::mt19937_64& rng,
                                  const tokenizer::Tokenizer& tok);

}  // namespace inferperf::dataset
