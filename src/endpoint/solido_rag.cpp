// SOLIDO RAG (/rag/api/prompt): the turn's texts as the query; answers in the chat format.
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

class SolidoRagEndpoint final : public Endpoint {
 public:
  SolidoRagEndpoint() : Endpoint(config::EndpointType::kSolidoRag) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    nlohmann::ordered_json body;
    body["query"] = texts_of(history.back());
    body["filters"] = {{"family", "Solido"}, {"tool", "SDE"}};
    body["inference_model"] = model_of(history, o);
    merge_extra(body, o);
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override { return decode_chat(payload); }
  DecodedEvent decode_streamed(std::string_view payload, ChunkMemo& memo) const override {
    return decode_chat(payload, memo);
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_solido_rag_endpoint() {
  return std::make_unique<SolidoRagEndpoint>();
}

}  // namespace inferperf::endpoint
