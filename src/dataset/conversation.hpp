// The dataset model: conversations of turns, frozen before the first request is sent.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace inferperf::dataset {

struct Turn {
  std::string role = "user";
  std::string text;                     // the turn's (first) text
  std::vector<std::string> more_texts;  // further texts with --prompt-batch-size > 1
  std::optional<int> max_tokens;        // requested OSL; unset means no max-tokens field
  int synthetic_tokens = 0;             // tokens the composer aimed for (0 when unknown)
  std::optional<double> delay_ms;       // wait after the previous turn's reply (later turns)
  std::optional<double> timestamp_ms;   // trace time (input files), for fixed schedules
  std::vector<std::string> passages;    // rankings: texts named "passages" (`text` is the query)
  std::string model;                    // --model-selection-strategy's pick ("" = the first -m)
};

struct Conversation {
  std::string session_id;
  std::string
      user_context;  // --user-context-prompt-length: sent as a user message before the turns
  std::vector<Turn> turns;
};

struct Dataset {
  std::string
      system_message;  // --shared-system-prompt-length: one system prompt for every conversation
  std::vector<Conversation> conversations;
};

}  // namespace inferperf::dataset
