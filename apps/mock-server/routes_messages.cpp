// Anthropic Messages API (/v1/messages): request parsing, the message object and its event stream.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "routes.hpp"

namespace inferperf::mock {

namespace {
using nlohmann::json;

// A string, or a list of blocks whose "text" blocks count; false on another shape.
bool content_text(const json& c, std::string& out) {
  const auto add = [&out](const std::string& t) {
    if (t.empty()) return;
    if (!out.empty()) out.push_back(' ');
    out += t;
  };
  if (c.is_string()) {
    add(c.get<std::string>());
    return true;
  }
  if (!c.is_array()) return false;
  for (const auto& b : c) {
    if (!b.is_object()) return false;
    if (b.value("type", "") == "text" && b.contains("text") && b["text"].is_string())
      add(b["text"].get<std::string>());
  }
  return true;
}

std::string sse(std::string_view type, std::string_view data) {
  return fmt::format("event: {}\ndata: {}\n\n", type, data);
}
}  // namespace

RouteError anthropic_error(int status, std::string_view type, std::string_view message) {
  return {status, fmt::format(R"({{"type":"error","error":{{"type":"{}","message":"{}"}}}})", type,
                              json_escape(message))};
}

std::optional<RouteError> parse_messages_request(std::string_view body, bool has_version_header,
                                                 GenerationRequest& out) {
  const auto bad = [](std::string_view m) {
    return anthropic_error(400, "invalid_request_error", m);
  };
  if (!has_version_header) return bad("anthropic-version header is required");
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return bad("request body is not a JSON object");
  out.chat = true;
  const auto m = j.find("model");
  if (m == j.end() || !m->is_string()) return bad("model: Field required");
  out.model = m->get<std::string>();
  const auto mt = j.find("max_tokens");
  if (mt == j.end()) return bad("max_tokens: Field required");
  if (!mt->is_number_integer() || mt->get<std::int64_t>() < 1)
    return bad("max_tokens: must be a positive integer");
  out.max_tokens = mt->get<std::int64_t>();
  if (auto s = j.find("system"); s != j.end() && !s->is_null()) {
    if (!content_text(*s, out.prompt_text))
      return bad("system: must be a string or a list of blocks");
  }
  const auto msgs = j.find("messages");
  if (msgs == j.end() || !msgs->is_array()) return bad("messages: Field required");
  for (const auto& msg : *msgs) {
    if (!msg.is_object() || !msg.contains("role") || !msg.contains("content"))
      return bad("messages: every message needs role and content");
    if (!content_text(msg["content"], out.prompt_text))
      return bad("messages: content must be a string or a list of blocks");
  }
  if (auto s = j.find("stream"); s != j.end() && !s->is_null()) {
    if (!s->is_boolean()) return bad("stream: must be a boolean");
    out.stream = s->get<bool>();
  }
  return std::nullopt;
}

std::string anthropic_stop_reason(std::string_view chat_finish) {
  return chat_finish == "length" ? "max_tokens" : "end_turn";
}

std::string messages_whole_json(std::string_view id, std::string_view model,
                                const GenerationPlan& plan) {
  std::string content;
  if (!plan.reasoning.empty()) {
    content = fmt::format(R"({{"type":"thinking","thinking":"{}","signature":"mock"}},)",
                          json_escape(joined(plan.reasoning)));
  }
  content += fmt::format(R"({{"type":"text","text":"{}"}})", json_escape(joined(plan.output)));
  return fmt::format(
      R"({{"id":"{}","type":"message","role":"assistant","model":"{}","content":[{}],"stop_reason":"{}","stop_sequence":null,"usage":{{"input_tokens":{},"output_tokens":{}}}}})",
      id, json_escape(model), content, anthropic_stop_reason(plan.finish_reason),
      plan.prompt_tokens.size(), plan.output.size() + plan.reasoning.size());
}

MessagesStream::MessagesStream(std::string id, std::string model, const GenerationPlan& plan)
    : id_(std::move(id)), model_(std::move(model)), plan_(plan) {}

std::string MessagesStream::head() {
  std::string s = sse(
      "message_start",
      fmt::format(
          R"({{"type":"message_start","message":{{"id":"{}","type":"message","role":"assistant","model":"{}","content":[],"stop_reason":null,"stop_sequence":null,"usage":{{"input_tokens":{},"output_tokens":1}}}}}})",
          id_, json_escape(model_), plan_.prompt_tokens.size()));
  in_thinking_ = !plan_.reasoning.empty();
  s += sse(
      "content_block_start",
      in_thinking_
          ? R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}})"
          : R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})");
  s += sse("ping", R"({"type": "ping"})");
  return s;
}

std::string MessagesStream::delta(bool reasoning, std::string_view text) {
  if (reasoning) {
    return sse(
        "content_block_delta",
        fmt::format(
            R"({{"type":"content_block_delta","index":{},"delta":{{"type":"thinking_delta","thinking":"{}"}}}})",
            block_, json_escape(text)));
  }
  std::string s;
  if (in_thinking_) {
    s += sse(
        "content_block_delta",
        fmt::format(
            R"({{"type":"content_block_delta","index":{},"delta":{{"type":"signature_delta","signature":"mock"}}}})",
            block_));
    s += sse("content_block_stop",
             fmt::format(R"({{"type":"content_block_stop","index":{}}})", block_));
    ++block_;
    in_thinking_ = false;
    s += sse(
        "content_block_start",
        fmt::format(
            R"({{"type":"content_block_start","index":{},"content_block":{{"type":"text","text":""}}}})",
            block_));
  }
  s += sse(
      "content_block_delta",
      fmt::format(
          R"({{"type":"content_block_delta","index":{},"delta":{{"type":"text_delta","text":"{}"}}}})",
          block_, json_escape(text)));
  return s;
}

std::string MessagesStream::tail() {
  std::string s = sse("content_block_stop",
                      fmt::format(R"({{"type":"content_block_stop","index":{}}})", block_));
  // The final usage carries the input count too (Anthropic's current message_delta), so a client
  // that takes the last usage object whole (AIPerf 0.11) still sees the prompt tokens.
  s += sse(
      "message_delta",
      fmt::format(
          R"({{"type":"message_delta","delta":{{"stop_reason":"{}","stop_sequence":null}},"usage":{{"input_tokens":{},"output_tokens":{}}}}})",
          anthropic_stop_reason(plan_.finish_reason), plan_.prompt_tokens.size(),
          plan_.output.size() + plan_.reasoning.size()));
  s += sse("message_stop", R"({"type":"message_stop"})");
  return s;
}

}  // namespace inferperf::mock
