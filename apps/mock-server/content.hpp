// The mock server's content model: prompt chunking, output length rules and response payloads.
// Pure functions, so the rules are unit-tested without sockets.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.hpp"

namespace inferperf::mock {

// ~4-character, whitespace-aware pieces: every run of non-space characters is cut into pieces of at
// most four characters; the first piece of a word keeps one leading space if the word had one.
std::vector<std::string> chunk_tokens(std::string_view text);

struct GenerationRequest {
  bool chat = true;
  std::string model;
  bool stream = false;
  bool include_usage = false;
  std::optional<std::int64_t> max_tokens;  // max_completion_tokens or max_tokens
  std::optional<std::int64_t> min_tokens;
  bool ignore_eos = false;
  std::string reasoning_effort;  // low | medium | high ("" = medium)
  std::string prompt_text;       // all message texts joined with a space
  // The client's warmup marker (AIPerf 0.11, #1040): a leading system message `warmup` or
  // `warmup\n...` (chat), or a prompt starting `warmup\n` (completions). Counted on /metrics as
  // inferperf_mock_warmup_marked_total so tests can see which requests were warmup ones.
  bool warmup_marked = false;
};

// Parses an OpenAI chat or completions body; returns an error message on invalid input.
std::optional<std::string> parse_generation_request(std::string_view body, bool chat,
                                                    GenerationRequest& out);

struct GenerationPlan {
  std::vector<std::string> prompt_tokens;
  std::vector<std::string> reasoning;  // reasoning token texts (reasoning models only)
  std::vector<std::string> output;     // content token texts
  std::string finish_reason;           // "length" or "stop"
  std::size_t cached_tokens = 0;       // leading prompt tokens the prefix cache already held
};

// The prompt's tokens as texts: with a tokenizer each id decoded on its own (a character split
// across tokens comes out as U+FFFD), without one the ~4-character chunks.
std::vector<std::string> tokenize_pieces(std::string_view text, const tokenizer::Tokenizer* tok);

// Deterministic: the same request always gives the same plan. Output tokens cycle through the
// prompt's tokens (tokenize_pieces).
GenerationPlan plan_generation(const GenerationRequest& req,
                               const tokenizer::Tokenizer* tok = nullptr);

std::string json_escape(std::string_view s);
// The pieces of a planned reply as one text.
std::string joined(const std::vector<std::string>& pieces);

// llama.cpp-style per-request timings (its server's top-level "timings" object).
struct Timings {
  std::int64_t prompt_n = 0;     // prompt tokens
  double prompt_ms = 0;          // handler start to first token
  std::int64_t predicted_n = 0;  // output tokens (content + reasoning)
  double predicted_ms = 0;       // first token to last token
  std::int64_t cache_n = 0;      // prompt tokens served from the prefix cache (shown when > 0)
};
// {"prompt_n":…,"prompt_ms":…,"prompt_per_token_ms":…,"prompt_per_second":…,"predicted_n":…,
// "predicted_ms":…,"predicted_per_token_ms":…,"predicted_per_second":…}; a rate whose time or
// count is 0 is written as 0 (JSON has no infinity).
std::string timings_json(const Timings& t);

}  // namespace inferperf::mock
