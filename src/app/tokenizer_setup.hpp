// Choosing and loading the client-side tokenizer for a run (before anything is sent), and counting
// tokens into the records afterwards (never on a worker thread).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/run_config.hpp"
#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "records/request_record.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::app {

struct LoadedTokenizer {
  std::unique_ptr<tokenizer::Tokenizer> tokenizer;
  std::string description;  // for "token source: tokenizer <description>"
  std::string notice;       // set when a fallback was taken
  std::string file;         // the tokenizer file loaded (kept for `analyze` of an unfinished run)
};

// Resolves --tokenizer (default: the model name) from the environment (HF_*, XDG_CACHE_HOME, HOME)
// and loads it; Hub downloads use transport::http_get under the run's HttpPolicy. A name written
// as a local path is never downloaded (exit 2 when it is missing).
core::Result<LoadedTokenizer> load_run_tokenizer(const config::RunConfig& c);

// Fills every record's ClientTokens: the input as AIPerf tokenizes it (system prompt, user context
// and each turn's texts joined by one space), the content and the reasoning text.
void count_tokens(const tokenizer::Tokenizer& tok, const dataset::Dataset& ds,
                  std::vector<records::RequestRecord>& recs);

// The sessions' context mode by name ("deltas_without_responses", "deltas_with_responses",
// "message_array"; the first session's when they differ), and back (nullopt: unknown name).
std::string context_mode_name(const dataset::Dataset& ds);
std::optional<dataset::ContextMode> context_mode_of(std::string_view name);

}  // namespace inferperf::app
