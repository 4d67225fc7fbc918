// NIM reranking (/v1/ranking): {"query": {"text"}, "passages": [{"text"}]} -> "rankings".
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"
#include "endpoint/rankings_common.hpp"

namespace inferperf::endpoint {

namespace {

class NimRankingsEndpoint final : public Endpoint {
 public:
  NimRankingsEndpoint() : Endpoint(config::EndpointType::kNimRankings) {}
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    const dataset::Turn& t = history.back();
    auto passages = nlohmann::ordered_json::array();
    for (const auto& p : passages_of(t)) passages.push_back({{"text", p}});
    nlohmann::ordered_json body;
    body["model"] = model_of(history, o);
    body["query"] = {{"text", t.text}};
    body["passages"] = std::move(passages);
    merge_extra(body, o);
    return body;
  }
  DecodedEvent decode(std::string_view payload) const override {
    return decode_rankings(payload, "rankings", false);
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_nim_rankings_endpoint() {
  return std::make_unique<NimRankingsEndpoint>();
}

}  // namespace inferperf::endpoint
