// Rerankers: NIM (/v1/ranking), Hugging Face TEI (/rerank) and Cohere (/v2/rerank). The query is
// the turn's text, the passages its texts named "passages" (else its further texts).
#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

std::vector<std::string> passages_of(const dataset::Turn& t) {
  return t.passages.empty() ? t.more_texts : t.passages;
}

// A ranking response: `key` names the list (empty: the top-level value may be the list itself).
DecodedEvent decode_rankings(std::string_view payload, std::string_view key, bool top_level_list) {
  DecodedEvent out;
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(payload.data(), payload.size(), true).get(doc) != simdjson::SUCCESS) {
    return error_event("ranking response is not JSON: " + std::string(payload.substr(0, 200)));
  }
  simdjson::dom::array list;
  simdjson::dom::object obj;
  if (top_level_list && doc.get_array().get(list) == simdjson::SUCCESS) {
    // TEI answers with the list itself.
  } else if (doc.get_object().get(obj) != simdjson::SUCCESS) {
    return error_event("ranking response is neither an object nor a list");
  } else if (obj[key].get_array().get(list) != simdjson::SUCCESS) {
    if (auto e = error_message_of(obj)) return error_event(*e);
    return error_event("ranking response without a '" + std::string(key) + "' list");
  } else {
    read_usage(obj, out);
  }
  for (simdjson::dom::element item : list) {
    if (!item.is_object()) return error_event("ranking item is not an object");
    ++out.outputs;
  }
  out.kind = DecodedEvent::Kind::kData;
  return out;
}

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

std::unique_ptr<Endpoint> make_nim_rankings_endpoint() {
  return std::make_unique<NimRankingsEndpoint>();
}
std::unique_ptr<Endpoint> make_hf_tei_rankings_endpoint() {
  return std::make_unique<HfTeiRankingsEndpoint>();
}
std::unique_ptr<Endpoint> make_cohere_rankings_endpoint() {
  return std::make_unique<CohereRankingsEndpoint>();
}

}  // namespace inferperf::endpoint
