// NIM embeddings: texts, image data URIs, or "<text> <image>" pairs when a turn has both.
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

class NimEmbeddingsEndpoint final : public Endpoint {
 public:
  NimEmbeddingsEndpoint() : Endpoint(config::EndpointType::kNimEmbeddings) {}
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    const dataset::Turn& t = history.back();
    std::vector<std::string> texts =
        t.text.empty() && t.more_texts.empty() ? std::vector<std::string>{} : texts_of(t);
    std::vector<std::string> images;
    for (const auto& m : t.media) {
      if (m.kind == dataset::MediaItem::Kind::kImage) images.push_back(m.url);
    }
    auto input = nlohmann::ordered_json::array();
    if (!texts.empty() && texts.size() == images.size()) {
      for (std::size_t i = 0; i < texts.size(); ++i) input.push_back(texts[i] + " " + images[i]);
    } else {
      // Unpaired: each text and each image is its own input.
      for (auto& s : texts) input.push_back(std::move(s));
      for (auto& s : images) input.push_back(std::move(s));
    }
    nlohmann::ordered_json body;
    body["model"] = model_of(history, o);
    body["input"] = std::move(input);
    merge_extra(body, o);
    return body;
  }
  DecodedEvent decode(std::string_view payload) const override {
    return decode_embeddings(payload);
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_nim_embeddings_endpoint() {
  return std::make_unique<NimEmbeddingsEndpoint>();
}

}  // namespace inferperf::endpoint
