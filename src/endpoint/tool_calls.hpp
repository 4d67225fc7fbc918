// Chat tool calls across turns: OpenAI streams each call's id and name once and its arguments in
// fragments keyed by the call's index (the arguments also arrive as content text, which the
// metrics count as output); the next turn's history carries the reply as an assistant message
// with tool_calls, so that turn's tool results answer them.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/conversation.hpp"
#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

// Adds one event's tool-call fragments to `calls` (a new index starts a call, a known one extends
// it); returns the argument bytes the fragments carried.
std::size_t merge_tool_call_fragments(std::vector<ToolCallDelta>& calls,
                                      std::vector<ToolCallDelta>&& fragments);

// OpenAI's assistant message for a reply that made `calls`:
// {"role":"assistant","content":<text without the arguments, null when none>,"tool_calls":[...]};
// a call without an id gets "call_<index>".
nlohmann::ordered_json assistant_history_message(std::string_view text_without_arguments,
                                                 const std::vector<ToolCallDelta>& calls);

// The turn a reply adds to its session's history: `text` (the reply's whole content text), or,
// when it made tool calls, assistant_history_message(); nullopt when the reply said nothing.
std::optional<dataset::Turn> assistant_history_turn(std::string text,
                                                    std::string_view text_without_arguments,
                                                    const std::vector<ToolCallDelta>& calls);

}  // namespace inferperf::endpoint
