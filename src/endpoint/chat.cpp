#include <simdjson.h>

#include "endpoint/chunk_scan.hpp"
#include "endpoint/decode_util.hpp"
#include "endpoint/endpoint.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"
#include "endpoint/server_timings.hpp"

namespace inferperf::endpoint {

namespace {

// A turn with media: its texts, then its images, audio clips and videos as OpenAI content parts.
nlohmann::ordered_json content_parts(const dataset::Turn& t) {
  auto parts = nlohmann::ordered_json::array();
  if (!t.text.empty()) parts.push_back({{"type", "text"}, {"text", t.text}});
  for (const auto& more : t.more_texts) parts.push_back({{"type", "text"}, {"text", more}});
  for (const auto& m : t.media) {
    nlohmann::ordered_json part;
    switch (m.kind) {
      case dataset::MediaItem::Kind::kImage:
        part = {{"type", "image_url"}, {"image_url", {{"url", m.url}}}};
        break;
      case dataset::MediaItem::Kind::kVideo:
        part = {{"type", "video_url"}, {"video_url", {{"url", m.url}}}};
        break;
      case dataset::MediaItem::Kind::kAudio:
        part = {{"type", "input_audio"},
                {"input_audio", {{"data", m.audio_data}, {"format", m.audio_format}}}};
        break;
    }
    if (!m.uuid.empty()) part["uuid"] = m.uuid;  // vLLM's multimodal cache id
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace

nlohmann::ordered_json chat_body(const std::vector<dataset::Turn>& history, const BodyOptions& o) {
  nlohmann::ordered_json body;
  auto messages = nlohmann::ordered_json::array();
  if (!o.system_message.empty())
    messages.push_back({{"role", "system"}, {"content", o.system_message}});
  if (!o.user_context.empty()) messages.push_back({{"role", "user"}, {"content", o.user_context}});
  for (const auto& t : history) {
    if (t.messages) {
      for (const auto& m : *t.messages) messages.push_back(m);  // trace messages, verbatim
      continue;
    }
    if (!t.media.empty()) {
      messages.push_back({{"role", t.role}, {"content", content_parts(t)}});
      continue;
    }
    if (t.more_texts.empty()) {
      // Single-text turns carry "name":"text" as AIPerf sends it (a Dynamo compatibility quirk).
      messages.push_back({{"role", t.role}, {"name", "text"}, {"content", t.text}});
      continue;
    }
    auto parts = nlohmann::ordered_json::array();
    parts.push_back({{"type", "text"}, {"text", t.text}});
    for (const auto& more : t.more_texts) parts.push_back({{"type", "text"}, {"text", more}});
    messages.push_back({{"role", t.role}, {"content", std::move(parts)}});
  }
  body["messages"] = std::move(messages);
  body["model"] = model_of(history, o);
  body["stream"] = o.streaming;
  const auto& last = history.back();
  if (last.max_tokens) {
    body[o.use_legacy_max_tokens ? "max_tokens" : "max_completion_tokens"] = *last.max_tokens;
  }
  if (last.tools) body["tools"] = *last.tools;
  finish_body(body, o);
  return body;
}

DecodedEvent decode_chat(std::string_view payload) {
  DecodedEvent out;
  if (!scan_chunk(payload, ChunkShape::kChat, out)) out = decode_chat_document(payload);
  return out;
}

DecodedEvent decode_chat(std::string_view payload, ChunkMemo& memo) {
  DecodedEvent out;
  if (!memo.scan(payload, ChunkShape::kChat, out)) out = decode_chat_document(payload);
  return out;
}

DecodedEvent decode_chat_document(std::string_view payload) {
  DecodedEvent out;
  thread_local simdjson::dom::parser parser;
  std::string_view object;
  simdjson::dom::element choice;
  if (!read_choices_head(payload, {"chat.completion.chunk", "chat.completion"}, "chat", parser,
                         object, choice, out))
    return out;
  const std::string_view field = object == "chat.completion.chunk" ? "delta" : "message";
  out.finish_reason = std::string(string_or_empty(choice, "finish_reason"));
  simdjson::dom::object msg;
  if (choice[field].get_object().get(msg) != simdjson::SUCCESS) return out;
  out.content = std::string(string_or_empty(msg, "content"));
  std::string_view reasoning = string_or_empty(msg, "reasoning_content");
  if (reasoning.empty()) reasoning = string_or_empty(msg, "reasoning");
  out.reasoning = std::string(reasoning);
  // Tool-call argument text is output the model generated (documented deviation from AIPerf).
  simdjson::dom::array calls;
  if (msg["tool_calls"].get_array().get(calls) == simdjson::SUCCESS) {
    std::int64_t position = 0;
    for (simdjson::dom::element call : calls) {
      ToolCallDelta delta;
      std::int64_t index = position++;
      if (call["index"].get_int64().get(index) == simdjson::SUCCESS) delta.index = index;
      delta.index = index;
      delta.id = std::string(string_or_empty(call, "id"));
      simdjson::dom::element fn;
      if (call["function"].get(fn) == simdjson::SUCCESS) {
        delta.name = std::string(string_or_empty(fn, "name"));
        delta.arguments = std::string(string_or_empty(fn, "arguments"));
        out.content += delta.arguments;
      }
      out.tool_calls.push_back(std::move(delta));
    }
  }
  return out;
}

namespace {

class ChatEndpoint final : public Endpoint {
 public:
  ChatEndpoint() : Endpoint(config::EndpointType::kChat) {}
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    return chat_body(history, o);
  }
  DecodedEvent decode(std::string_view payload) const override { return decode_chat(payload); }
  DecodedEvent decode_streamed(std::string_view payload, ChunkMemo& memo) const override {
    return decode_chat(payload, memo);
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_chat_endpoint() {
  return std::make_unique<ChatEndpoint>();
}

}  // namespace inferperf::endpoint
