#include <simdjson.h>

#include "endpoint/chunk_scan.hpp"
#include "endpoint/decode_util.hpp"
#include "endpoint/endpoint.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"
#include "endpoint/server_timings.hpp"

namespace inferperf::endpoint {

namespace {

class CompletionsEndpoint final : public Endpoint {
 public:
  CompletionsEndpoint() : Endpoint(config::EndpointType::kCompletions) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    nlohmann::ordered_json body;
    auto prompt = nlohmann::ordered_json::array();
    for (const auto& t : history) {
      prompt.push_back(t.text);
      for (const auto& more : t.more_texts) prompt.push_back(more);
    }
    body["prompt"] = std::move(prompt);
    body["model"] = model_of(history, o);
    body["stream"] = o.streaming;
    if (history.back().max_tokens) body["max_tokens"] = *history.back().max_tokens;
    finish_body(body, o);
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    DecodedEvent out;
    if (!scan_chunk(payload, ChunkShape::kCompletions, out))
      out = decode_completions_document(payload);
    return out;
  }
  DecodedEvent decode_streamed(std::string_view payload, ChunkMemo& memo) const override {
    DecodedEvent out;
    if (!memo.scan(payload, ChunkShape::kCompletions, out))
      out = decode_completions_document(payload);
    return out;
  }
};

}  // namespace

DecodedEvent decode_completions_document(std::string_view payload) {
  DecodedEvent out;
  thread_local simdjson::dom::parser parser;
  std::string_view object;
  simdjson::dom::element choice;
  if (!read_choices_head(payload, {"text_completion", "completion"}, "completions", parser, object,
                         choice, out))
    return out;
  out.content = std::string(string_or_empty(choice, "text"));
  out.finish_reason = std::string(string_or_empty(choice, "finish_reason"));
  return out;
}

std::unique_ptr<Endpoint> make_completions_endpoint() {
  return std::make_unique<CompletionsEndpoint>();
}

}  // namespace inferperf::endpoint
