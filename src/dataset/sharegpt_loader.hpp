// The ShareGPT dataset (`--public-dataset sharegpt`, trace-formats §6): one JSON array of entries,
// each with a `conversations` list of {"from", "value"} messages. Human->gpt pairs become turns
// whose prompt is the human text and whose max tokens is the gpt text's token count; entries with a
// pair outside vLLM's length limits are dropped whole. The file is parsed with simdjson's DOM (the
// real file is about 650 MB) and the texts are counted on several threads.
#pragma once
#include <cstddef>
#include <filesystem>
#include <random>
#include <string>

#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

// vLLM's ShareGPT filter, per prompt/completion pair (token counts, inclusive bounds).
inline constexpr int kShareGptMinTokens = 4;  // prompt, and completion unless --osl is set
inline constexpr int kShareGptMaxPromptTokens = 1024;
inline constexpr int kShareGptMaxTotalTokens = 2048;  // prompt + completion

struct ShareGptOptions {
  std::filesystem::path path;
  const tokenizer::Tokenizer* tokenizer = nullptr;  // required: the filter counts tokens
  bool check_min_completion = true;                 // false when an OSL mean is configured
  int threads = 0;                                  // 0: one per hardware thread
};

struct ShareGptDataset {
  Dataset dataset;
  std::size_t entries = 0;        // array entries read
  std::size_t no_pairs = 0;       // skipped: < 2 messages or no usable human->gpt pair
  std::size_t out_of_limits = 0;  // skipped: a pair failed the length filter
  std::size_t renamed_ids = 0;    // repeated `id`s given a "#N" suffix to stay unique
  std::size_t kept() const { return dataset.conversations.size(); }
  std::size_t skipped() const { return no_pairs + out_of_limits; }
};

// Errors name the file, and for a bad entry its 0-based index in the array ("entry [12]"); a
// syntax error also gives the line, column and byte offset. `id_rng` draws session ids for entries
// without an `id`.
core::Result<ShareGptDataset> load_sharegpt(const ShareGptOptions& options,
                                            std::mt19937_64& id_rng);

}  // namespace inferperf::dataset
