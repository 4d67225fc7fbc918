// Synthetic prompts: conversations whose prompt lengths follow the configured ISL distribution.
#pragma once
#include <optional>
#include <string>

#include "core/rng.hpp"
#include "dataset/conversation.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

struct SyntheticOptions {
  int num_conversations = 100;
  int isl_mean = 550;
  double isl_stddev = 0.0;
  std::optional<int> osl_mean;
  double osl_stddev = 0.0;
};

// Until real tokenizers exist, one prompt token is one word of at most four letters from a fixed
// vocabulary preceded by a space: that is exactly one token for the mock server's chunk counter and
// close to one for common BPE vocabularies.
// With a tokenizer, every prompt is adjusted word by word until it has exactly the sampled number
// of tokens for that tokenizer.
Dataset compose_synthetic(const SyntheticOptions& options, const core::RngFactory& rngs,
                          const tokenizer::Tokenizer* tok = nullptr);

std::string generate_prompt(int tokens, std::mt19937_64& rng);
std::string generate_exact_prompt(int tokens, std::mt19937_64& rng, const tokenizer::Tokenizer& tok);

}  // namespace inferperf::dataset
