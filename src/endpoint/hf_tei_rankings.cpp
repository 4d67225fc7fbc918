// Hugging Face TEI rerank (/rerank): {"query", "texts"} -> a list (or "results").
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"
#include "endpoint/rankings_common.hpp"

namespace inferperf::endpoint {

namespace {

class HfTeiRankingsEndpoint final : public Endpoint {
 public:
  HfTeiRankingsEndpoint() : Endpoint(config::EndpointType::kHfTeiRankings) {}
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    nlohmann::ordered_json body;
    body["query"] = history.back().text;
    body["texts"] = passages_of(history.back());
    merge_extra(body, o);
    return body;
  }
  DecodedEvent decode(std::string_view payload) const override {
    return decode_rankings(payload, "results", true);
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_hf_tei_rankings_endpoint() {
  return std::make_unique<HfTeiRankingsEndpoint>();
}

}  // namespace inferperf::endpoint
