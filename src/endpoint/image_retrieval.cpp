// NIM image retrieval (/v1/infer): the turn's images as data URIs; one result per image.
#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

class ImageRetrievalEndpoint final : public Endpoint {
 public:
  ImageRetrievalEndpoint() : Endpoint(config::EndpointType::kImageRetrieval) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    auto input = nlohmann::ordered_json::array();
    for (const auto& m : history.back().media) {
      if (m.kind == dataset::MediaItem::Kind::kImage) {
        input.push_back({{"type", "image_url"}, {"url", m.url}});
      }
    }
    nlohmann::ordered_json body;
    body["input"] = std::move(input);
    merge_extra(body, o);
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    DecodedEvent out;
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object obj;
    if (!parse_object(payload, parser, obj, out)) return out;
    simdjson::dom::array data;
    if (!data_list_of(obj, "image retrieval", data, out)) return out;
    out.kind = DecodedEvent::Kind::kData;
    out.outputs = static_cast<std::int64_t>(data.size());
    return out;
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_image_retrieval_endpoint() {
  return std::make_unique<ImageRetrievalEndpoint>();
}

}  // namespace inferperf::endpoint
