// embeddings: {"model", "input": [texts]}; the response's data[] must all be embeddings.
#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

DecodedEvent decode_embeddings(std::string_view payload) {
  DecodedEvent out;
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object obj;
  if (!parse_object(payload, parser, obj, out)) return out;
  simdjson::dom::array data;
  if (!data_list_of(obj, "embeddings", data, out)) return out;
  for (simdjson::dom::element item : data) {
    if (string_or_empty(item, "object") != "embedding") {
      return error_event("embeddings response item is not an 'embedding' object");
    }
    ++out.outputs;
  }
  out.kind = DecodedEvent::Kind::kData;
  read_usage(obj, out);
  return out;
}

namespace {

class EmbeddingsEndpoint final : public Endpoint {
 public:
  EmbeddingsEndpoint() : Endpoint(config::EndpointType::kEmbeddings) {}
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    nlohmann::ordered_json body;
    body["model"] = model_of(history, o);
    body["input"] = texts_of(history.back());  // max tokens mean nothing to an embedder
    merge_extra(body, o);
    return body;
  }
  DecodedEvent decode(std::string_view payload) const override {
    return decode_embeddings(payload);
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_embeddings_endpoint() {
  return std::make_unique<EmbeddingsEndpoint>();
}

}  // namespace inferperf::endpoint
