// OpenAI Responses API (/v1/responses): typed input items, typed stream events
// (response.output_text.delta ... response.completed with the usage).
#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

nlohmann::ordered_json input_item(const dataset::Turn& t) {
  const bool assistant = t.role == "assistant";
  auto content = nlohmann::ordered_json::array();
  for (const auto& s : texts_of(t)) {
    content.push_back({{"type", assistant ? "output_text" : "input_text"}, {"text", s}});
  }
  for (const auto& m : t.media) {
    if (m.kind == dataset::MediaItem::Kind::kImage) {
      content.push_back({{"type", "input_image"}, {"image_url", m.url}});
    }
  }
  return {{"type", "message"}, {"role", t.role}, {"content", std::move(content)}};
}

// The text of a completed response object's output items.
void read_output(const simdjson::dom::object& response, DecodedEvent& out) {
  simdjson::dom::array items;
  if (response["output"].get_array().get(items) != simdjson::SUCCESS) return;
  for (simdjson::dom::element item : items) {
    std::string_view type = string_or_empty(item, "type");
    simdjson::dom::array parts;
    if (type == "message" && item["content"].get_array().get(parts) == simdjson::SUCCESS) {
      for (simdjson::dom::element p : parts) {
        if (string_or_empty(p, "type") == "output_text") out.content += string_or_empty(p, "text");
      }
    } else if (type == "reasoning") {
      for (std::string_view key : {"content", "summary"}) {
        if (item[key].get_array().get(parts) != simdjson::SUCCESS) continue;
        for (simdjson::dom::element p : parts) out.reasoning += string_or_empty(p, "text");
      }
    } else if (type == "function_call") {
      out.content += string_or_empty(item, "arguments");  // tool-call output counts (DECISIONS)
    }
  }
}

class ResponsesEndpoint final : public Endpoint {
 public:
  ResponsesEndpoint() : Endpoint(config::EndpointType::kResponses) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    auto input = nlohmann::ordered_json::array();
    if (!o.user_context.empty()) {
      dataset::Turn context;
      context.text = std::string(o.user_context);
      input.push_back(input_item(context));
    }
    for (const auto& t : history) {
      input.push_back(input_item(t));
    }
    nlohmann::ordered_json body;
    body["input"] = std::move(input);
    body["model"] = model_of(history, o);
    body["stream"] = o.streaming;
    if (!o.system_message.empty()) body["instructions"] = o.system_message;
    if (history.back().max_tokens) body["max_output_tokens"] = *history.back().max_tokens;
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
    if (type.empty()) {
      // A whole (non-streaming) response object.
      if (string_or_empty(obj, "object") != "response") {
        if (auto e = error_message_of(obj)) return error_event(*e);
        return error_event("unexpected responses object '" +
                           std::string(string_or_empty(obj, "object")) + "'");
      }
      if (string_or_empty(obj, "status") == "failed") {
        return error_event(error_message_of(obj).value_or("response failed"));
      }
      out.kind = DecodedEvent::Kind::kData;
      read_output(obj, out);
      read_usage(obj, out);
      out.finish_reason = std::string(string_or_empty(obj, "status"));
      return out;
    }
    out.kind = DecodedEvent::Kind::kData;
    if (type == "response.output_text.delta" || type == "response.function_call_arguments.delta") {
      out.content = std::string(string_or_empty(obj, "delta"));
    } else if (type == "response.reasoning_text.delta" ||
               type == "response.reasoning_summary_text.delta") {
      out.reasoning = std::string(string_or_empty(obj, "delta"));
    } else if (type == "response.completed" || type == "response.incomplete") {
      simdjson::dom::object response;
      if (obj["response"].get_object().get(response) == simdjson::SUCCESS) {
        read_usage(response, out);
        out.finish_reason = std::string(string_or_empty(response, "status"));
      }
    } else if (type == "response.failed" || type == "error") {
      simdjson::dom::object response;
      if (obj["response"].get_object().get(response) == simdjson::SUCCESS) {
        if (auto e = error_message_of(response)) return error_event(*e);
      }
      return error_event(
          error_message_of(obj).value_or(std::string(string_or_empty(obj, "message")).empty()
                                             ? "response failed"
                                             : std::string(string_or_empty(obj, "message"))));
    }
    return out;  // lifecycle events (created, in_progress, ...done): no data
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_responses_endpoint() {
  return std::make_unique<ResponsesEndpoint>();
}

}  // namespace inferperf::endpoint
