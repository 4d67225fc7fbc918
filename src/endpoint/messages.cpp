// Anthropic Messages (/v1/messages): max_tokens is required, the system prompt is a field, and
// the stream is typed events (content_block_delta with text_delta / thinking_delta ...).
#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

// Anthropic refuses a request without max_tokens; this is sent when the turn sets none.
constexpr int kDefaultMaxTokens = 4096;

nlohmann::ordered_json image_block(const std::string& url) {
  // data:<media type>;base64,<data> becomes a base64 source; anything else a URL source.
  if (url.starts_with("data:")) {
    const auto semi = url.find(';');
    const auto comma = url.find(',');
    if (semi != std::string::npos && comma != std::string::npos && semi < comma) {
      return {{"type", "image"},
              {"source",
               {{"type", "base64"},
                {"media_type", url.substr(5, semi - 5)},
                {"data", url.substr(comma + 1)}}}};
    }
  }
  return {{"type", "image"}, {"source", {{"type", "url"}, {"url", url}}}};
}

nlohmann::ordered_json message_of(const dataset::Turn& t) {
  std::vector<std::string> texts = texts_of(t);
  bool images = false;
  for (const auto& m : t.media) images |= m.kind == dataset::MediaItem::Kind::kImage;
  if (texts.size() == 1 && !images) return {{"role", t.role}, {"content", texts.front()}};
  auto content = nlohmann::ordered_json::array();
  for (auto& s : texts) content.push_back({{"type", "text"}, {"text", std::move(s)}});
  for (const auto& m : t.media) {
    if (m.kind == dataset::MediaItem::Kind::kImage) content.push_back(image_block(m.url));
  }
  return {{"role", t.role}, {"content", std::move(content)}};
}

void read_message(const simdjson::dom::object& msg, DecodedEvent& out) {
  simdjson::dom::array blocks;
  if (msg["content"].get_array().get(blocks) == simdjson::SUCCESS) {
    for (simdjson::dom::element b : blocks) {
      std::string_view type = string_or_empty(b, "type");
      if (type == "text") out.content += string_or_empty(b, "text");
      if (type == "thinking") out.reasoning += string_or_empty(b, "thinking");
      if (type == "tool_use") {
        // Tool input is generated output, as its streamed input_json_delta pieces are.
        simdjson::dom::element input;
        if (b["input"].get(input) == simdjson::SUCCESS) out.content += simdjson::to_string(input);
      }
    }
  }
  read_usage(msg, out);
  out.finish_reason = std::string(string_or_empty(msg, "stop_reason"));
}

class MessagesEndpoint final : public Endpoint {
 public:
  MessagesEndpoint() : Endpoint(config::EndpointType::kMessages) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    auto messages = nlohmann::ordered_json::array();
    if (!o.user_context.empty()) {
      messages.push_back({{"role", "user"}, {"content", std::string(o.user_context)}});
    }
    for (const auto& t : history) {
      messages.push_back(message_of(t));
    }
    nlohmann::ordered_json body;
    body["model"] = model_of(history, o);
    body["messages"] = std::move(messages);
    body["max_tokens"] = history.back().max_tokens.value_or(kDefaultMaxTokens);
    if (!o.system_message.empty()) body["system"] = o.system_message;
    body["stream"] = o.streaming;
    if (history.back().tools) body["tools"] = *history.back().tools;
    merge_extra(body, o);
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    DecodedEvent out;
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object obj;
    if (!parse_object(payload, parser, obj, out)) return out;
    std::string_view type = string_or_empty(obj, "type");
    if (type == "error") {
      return error_event(error_message_of(obj).value_or("Anthropic error event"));
    }
    out.kind = DecodedEvent::Kind::kData;
    if (type == "message") {
      read_message(obj, out);
    } else if (type == "message_start") {
      simdjson::dom::object msg;
      if (obj["message"].get_object().get(msg) == simdjson::SUCCESS) read_usage(msg, out);
    } else if (type == "content_block_start") {
      simdjson::dom::element block;
      if (obj["content_block"].get(block) == simdjson::SUCCESS) {
        out.content = std::string(string_or_empty(block, "text"));
        out.reasoning = std::string(string_or_empty(block, "thinking"));
      }
    } else if (type == "content_block_delta") {
      simdjson::dom::element delta;
      if (obj["delta"].get(delta) == simdjson::SUCCESS) {
        std::string_view kind = string_or_empty(delta, "type");
        if (kind == "text_delta") out.content = std::string(string_or_empty(delta, "text"));
        if (kind == "thinking_delta") {
          out.reasoning = std::string(string_or_empty(delta, "thinking"));
        }
        if (kind == "input_json_delta") {
          out.content = std::string(string_or_empty(delta, "partial_json"));  // tool input
        }
      }
    } else if (type == "message_delta") {
      simdjson::dom::element delta;
      if (obj["delta"].get(delta) == simdjson::SUCCESS) {
        out.finish_reason = std::string(string_or_empty(delta, "stop_reason"));
      }
      read_usage(obj, out);
    } else if (type.empty()) {
      return error_event("Anthropic response without a 'type'");
    }
    return out;  // ping, content_block_stop, message_stop: no data
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_messages_endpoint() {
  return std::make_unique<MessagesEndpoint>();
}

}  // namespace inferperf::endpoint
