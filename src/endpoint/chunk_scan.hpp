// The hot path's decoder: one pass over a chat or completions chunk, or a whole non-streamed
// response, of the common shape (the text of choices[0], its finish reason and usage under
// OpenAI's names, nothing else of interest), with no JSON document built. It answers only what it
// fully understands: plain ASCII, the top-level keys a response carries (id, object, created,
// model, system_fingerprint, service_tier, vLLM's prompt_logprobs, prompt_token_ids and
// kv_transfer_params, choices, usage), usage with only prompt_tokens, completion_tokens,
// total_tokens and the two detail objects (prompt_tokens_details, completion_tokens_details) with
// integer or null counts (their other members skipped), no tool calls (an empty list is none), no
// duplicate keys that matter, no surrogate escapes, short plain numbers. Anything else (other
// vendors' usage names, server timings, errors, tool calls, UTF-8, odd numbers, invalid JSON)
// returns false and goes to the full simdjson decoder, so the two always agree on what the fast one
// accepts (ChunkScan tests compare them over mutated responses).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

enum class ChunkShape {
  kChat,         // "object":"chat.completion.chunk", choices[0].delta.{content,reasoning...};
                 // "chat.completion", choices[0].message.{...}
  kCompletions,  // "object":"text_completion" or "completion", choices[0].text
};

// Fills `out` (a fresh event) and returns true when the fast path decoded `payload`; on false
// `out` holds a partial reading to be discarded.
bool scan_chunk(std::string_view payload, ChunkShape shape, DecodedEvent& out);

// scan_chunk for the chunks of one stream, which a server writes in one frame: the same id,
// object, created and model, the same choice around the text. After a chunk it scanned whole, the
// memo keeps the bytes before and after choices[0]'s text string; a chunk with exactly those bytes
// around exactly one JSON string is that string's text with the same finish reason and reasoning,
// so it is read without scanning the frame again (two comparisons and the string). Anything else
// is scanned whole and remembered in its turn, unless it carries usage. One memo per stream (the
// response collector's).
class ChunkMemo {
 public:
  // As scan_chunk, `out` a fresh event (a hit sets only what the chunk has).
  bool scan(std::string_view payload, ChunkShape shape, DecodedEvent& out);
  // Chunks read from the remembered frame so far (the rest were scanned whole).
  std::uint64_t frame_hits() const { return frame_hits_; }

 private:
  std::string before_;  // the payload up to the text's opening quote
  std::string after_;   // from past its closing quote to the end
  std::string finish_reason_;
  std::string reasoning_;
  ChunkShape shape_ = ChunkShape::kChat;
  bool valid_ = false;
  std::uint64_t frame_hits_ = 0;
};

}  // namespace inferperf::endpoint
