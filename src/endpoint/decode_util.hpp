// Shared JSON decoding helpers for OpenAI-style response objects.
#pragma once
#include <simdjson.h>

#include <string_view>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

// Parses `payload` into `doc`; returns false (and fills `out`) when it is not a JSON object.
bool parse_object(std::string_view payload, simdjson::dom::parser& parser,
                  simdjson::dom::object& obj, DecodedEvent& out);
// The token usage of a response object: its `usage`, Gemini's `usageMetadata` or Cohere's `meta`
// (with `tokens`). Sets out.usage only when some known count is present.
void read_usage(const simdjson::dom::object& obj, DecodedEvent& out);
// A usage object itself, with AIPerf 0.11's vendor names (OpenAI prompt/completion, Anthropic and
// Responses input/output, Gemini camelCase counts, DeepSeek cache hit/miss, Cohere `tokens`).
void read_usage_object(const simdjson::dom::object& usage, DecodedEvent& out);
std::string_view string_or_empty(simdjson::dom::element e, std::string_view key);
std::string_view string_or_empty(const simdjson::dom::object& o, std::string_view key);

}  // namespace inferperf::endpoint
