// Hugging Face TGI: /generate (one JSON body) and /generate_stream (one event per token).
#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

void read_details(simdjson::dom::element e, DecodedEvent& out) {
  simdjson::dom::element details;
  if (e["details"].get(details) != simdjson::SUCCESS || !details.is_object()) return;
  out.finish_reason = std::string(string_or_empty(details, "finish_reason"));
  std::int64_t generated = 0;
  if (details["generated_tokens"].get_int64().get(generated) == simdjson::SUCCESS) {
    Usage u;
    u.completion_tokens = generated;
    out.usage = u;
  }
}

class HuggingfaceGenerateEndpoint final : public Endpoint {
 public:
  HuggingfaceGenerateEndpoint() : Endpoint(config::EndpointType::kHuggingfaceGenerate) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    std::string inputs;
    for (const auto& s : all_texts(history)) {
      if (!inputs.empty()) inputs += ' ';
      inputs += s;
    }
    nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
    if (history.back().max_tokens) parameters["max_new_tokens"] = *history.back().max_tokens;
    // TGI takes sampling options inside "parameters": --extra-inputs go there.
    if (o.extra) {
      for (const auto& [k, v] : *o.extra) parameters[k] = v;
    }
    nlohmann::ordered_json body;
    body["inputs"] = std::move(inputs);
    body["parameters"] = std::move(parameters);
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    DecodedEvent out;
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(payload.data(), payload.size(), true).get(doc) != simdjson::SUCCESS) {
      return error_event("generate response is not JSON: " + std::string(payload.substr(0, 200)));
    }
    simdjson::dom::array list;
    if (doc.get_array().get(list) == simdjson::SUCCESS) {
      if (list.size() == 0) return error_event("generate response is an empty list");
      doc = list.at(0);  // /generate may answer with a one-element list
    }
    simdjson::dom::object obj;
    if (doc.get_object().get(obj) != simdjson::SUCCESS) {
      return error_event("generate response is not an object");
    }
    simdjson::dom::element err;
    if (obj["error"].get(err) == simdjson::SUCCESS) {
      if (auto e = error_message_of(obj)) return error_event(*e);
    }
    simdjson::dom::object token;
    if (obj["token"].get_object().get(token) == simdjson::SUCCESS) {
      // A stream event: its token's text only; the last event's generated_text repeats the
      // whole output and is not counted again.
      out.kind = DecodedEvent::Kind::kData;
      bool special = false;
      if (token["special"].get_bool().get(special) != simdjson::SUCCESS || !special) {
        out.content = std::string(string_or_empty(token, "text"));
      }
      read_details(doc, out);
      return out;
    }
    std::string_view text;
    if (obj["generated_text"].get_string().get(text) != simdjson::SUCCESS) {
      return error_event("generate response without 'generated_text' or 'token'");
    }
    out.kind = DecodedEvent::Kind::kData;
    out.content = std::string(text);
    read_details(doc, out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_huggingface_generate_endpoint() {
  return std::make_unique<HuggingfaceGenerateEndpoint>();
}

}  // namespace inferperf::endpoint
