// Cohere rerank (/v2/rerank): {"model", "query", "documents"} -> "results".
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"
#include "endpoint/rankings_common.hpp"

namespace inferperf::endpoint {

namespace {

class CohereRankingsEndpoint final : public Endpoint {
 public:
  CohereRankingsEndpoint() : Endpoint(config::EndpointType::kCohereRankings) {}
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    nlohmann::ordered_json body;
    body["model"] = model_of(history, o);
    body["query"] = history.back().text;
    body["documents"] = passages_of(history.back());
    merge_extra(body, o);
    return body;
  }
  DecodedEvent decode(std::string_view payload) const override {
    return decode_rankings(payload, "results", false);
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_cohere_rankings_endpoint() {
  return std::make_unique<CohereRankingsEndpoint>();
}

}  // namespace inferperf::endpoint
