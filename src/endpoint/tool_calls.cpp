#include "endpoint/tool_calls.hpp"

#include <algorithm>
#include <memory>
#include <utility>

namespace inferperf::endpoint {

std::size_t merge_tool_call_fragments(std::vector<ToolCallDelta>& calls,
                                      std::vector<ToolCallDelta>&& fragments) {
  std::size_t argument_bytes = 0;
  for (auto& fragment : fragments) {
    argument_bytes += fragment.arguments.size();
    auto it = std::find_if(calls.begin(), calls.end(),
                           [&](const auto& c) { return c.index == fragment.index; });
    if (it == calls.end()) {
      calls.push_back(std::move(fragment));
      continue;
    }
    if (!fragment.id.empty()) it->id = fragment.id;
    it->name += fragment.name;
    it->arguments += fragment.arguments;
  }
  return argument_bytes;
}

nlohmann::ordered_json assistant_history_message(std::string_view text_without_arguments,
                                                 const std::vector<ToolCallDelta>& calls) {
  auto tool_calls = nlohmann::ordered_json::array();
  for (const auto& c : calls) {
    tool_calls.push_back({{"id", c.id.empty() ? "call_" + std::to_string(c.index) : c.id},
                          {"type", "function"},
                          {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
  }
  nlohmann::ordered_json m;
  m["role"] = "assistant";
  m["content"] = text_without_arguments.empty()
                     ? nlohmann::ordered_json(nullptr)
                     : nlohmann::ordered_json(std::string(text_without_arguments));
  m["tool_calls"] = std::move(tool_calls);
  return m;
}

std::optional<dataset::Turn> assistant_history_turn(std::string text,
                                                    std::string_view text_without_arguments,
                                                    const std::vector<ToolCallDelta>& calls) {
  if (text.empty()) return std::nullopt;
  dataset::Turn assistant;
  assistant.role = "assistant";
  if (calls.empty()) {
    assistant.text = std::move(text);
    return assistant;
  }
  assistant.messages = std::make_shared<const nlohmann::ordered_json>(
      nlohmann::ordered_json::array({assistant_history_message(text_without_arguments, calls)}));
  return assistant;
}

}  // namespace inferperf::endpoint
