// The dataset model: conversations of turns, frozen before the first request is sent.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace inferperf::dataset {

struct Turn {
  std::string role = "user";
  std::string text;
  std::optional<int> max_tokens;  // requested OSL; unset means no max-tokens field
  int synthetic_tokens = 0;       // tokens the composer aimed for (0 when unknown)
};

struct Conversation {
  std::string session_id;
  std::vector<Turn> turns;
};

struct Dataset {
  std::vector<Conversation> conversations;
};

}  // namespace inferperf::dataset
