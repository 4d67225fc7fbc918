// The dataset memory budget (--max-dataset-memory): what a dataset will cost before it is
// generated, so a prompt length or an entry count that would exhaust the host is refused in
// milliseconds with the estimate and the limit, instead of growing until the OOM killer ends it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "dataset/conversation.hpp"
#include "dataset/corpus.hpp"
#include "dataset/synthetic.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

// No trace row may ask for more prompt tokens than this: above every model's context window
// (10M tokens at most today), so a larger input_length is a corrupt row, not a workload.
inline constexpr long long kMaxRowTokens = 1LL << 24;

// Without a tokenizer a prompt token is one word of at most four letters and a space.
inline constexpr double kWordBytesPerToken = 5.0;

// An upper bound on the bytes of prompt text per token for `tok` (null: kWordBytesPerToken):
// the largest ratio over a few slices of `corpus`, plus 10 %. Costs a few milliseconds.
double bytes_per_token(const tokenizer::Tokenizer* tok,
                       std::string_view corpus = builtin_corpus_text());

// Bytes of an estimate made in doubles: 0 for NaN or negatives, at most 9.2e18 (no float-to-int
// overflow, however absurd the typed sizes).
std::uint64_t saturated_bytes(double x);

// What a dataset will hold in memory, by part (bytes).
struct DatasetEstimate {
  std::uint64_t prompt_text = 0;  // every prompt's text, kept for the whole run
  std::uint64_t payloads = 0;     // the first request body of every conversation, kept
  std::uint64_t working = 0;      // the largest transient: a prompt being generated, or one
                                  // conversation's inputs.json entry being written
  std::uint64_t structures = 0;   // per conversation and per turn bookkeeping
  std::uint64_t media = 0;        // synthetic pictures, clips and videos (base64), and the first
                                  // body of each conversation that carries them
  std::uint64_t total() const;
};

DatasetEstimate estimate_synthetic(const SyntheticOptions& o, double bytes_per_token,
                                   unsigned threads = 0);

// The budget in effect: `configured`, or half the physical memory when it is 0 (8 GiB when the
// physical memory cannot be told).
std::uint64_t dataset_memory_budget(std::uint64_t configured);

// "" when `e` fits in the budget (`configured` as dataset_memory_budget reads it), else the
// refusal: `what` asked for it ("--isl 2000000000 with --num-dataset-entries 100"), the estimate
// by part and the limit in human units, and the advice to lower `flags` or raise
// --max-dataset-memory.
std::string budget_refusal(const DatasetEstimate& e, std::uint64_t configured,
                           std::string_view what, std::string_view flags);

// The bytes of text a loaded dataset actually holds (prompts, messages, payload JSON, blocks).
std::uint64_t dataset_text_bytes(const Dataset& ds);

// What a loaded dataset (an input file, a public dataset) will hold once its request bodies are
// kept and inputs.json is written; `bytes_per_token` sizes prompts assembled per request.
DatasetEstimate estimate_loaded(const Dataset& ds, double bytes_per_token);

}  // namespace inferperf::dataset
