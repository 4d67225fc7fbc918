// Choosing and loading the client-side tokenizer for a run (before anything is sent), and counting
// tokens into the records afterwards (never on a worker thread).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
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

// Client token counts one record at a time: count() fills a record's ClientTokens (the input as
// AIPerf tokenizes it: system prompt, user context and each turn's texts joined by one space, the
// earlier replies of its session included; the content and the reasoning text). A session's
// replies are remembered (remember_reply) only for multi-turn conversations, and only for turns
// that have a later turn. Records read in the order they finished need each record counted, then
// remembered: a turn is sent after the turn before it finished.
class ClientTokenCounter {
 public:
  // Both must outlive the counter.
  ClientTokenCounter(const tokenizer::Tokenizer& tok, const dataset::Dataset& ds);
  void count(records::RequestRecord& r) const;
  void remember_reply(const records::RequestRecord& r);
  // count() then remember_reply() for records in the order they finished, forgetting a session's
  // replies once its last turn is counted.
  void count_in_order(records::RequestRecord& r);
  // Sessions whose replies are held (multi-turn sessions not yet at their last turn).
  std::size_t sessions_held() const { return replies_.size(); }

 private:
  std::string input_text(const records::RequestRecord& r, const dataset::Conversation& conv,
                         std::int64_t& known) const;
  const tokenizer::Tokenizer& tok_;
  const dataset::Dataset& ds_;
  std::unordered_map<std::string, const dataset::Conversation*> by_id_;
  std::unordered_map<std::string, std::unordered_map<int, std::string>> replies_;
};

// Fills every record's ClientTokens (ClientTokenCounter, with every reply remembered first).
void count_tokens(const tokenizer::Tokenizer& tok, const dataset::Dataset& ds,
                  std::vector<records::RequestRecord>& recs);

// The sessions' context mode by name ("deltas_without_responses", "deltas_with_responses",
// "message_array"; the first session's when they differ), and back (nullopt: unknown name).
std::string context_mode_name(const dataset::Dataset& ds);
std::optional<dataset::ContextMode> context_mode_of(std::string_view name);

}  // namespace inferperf::app
