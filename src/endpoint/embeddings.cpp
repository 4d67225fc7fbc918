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
  if (obj["data"].get_array().get(data) != simdjson::SUCCESS) {
    if (auto e = error_message_of(obj)) return error_event(*e);
    return error_event("embeddings response without a 'data' list");
  }
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

// A chat-shaped request (multimodal embedders take messages) answered with embeddings.
class ChatEmbeddingsEndpoint final : public Endpoint {
 public:
  ChatEmbeddingsEndpoint() : Endpoint(config::EndpointType::kChatEmbeddings) {}
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    return chat_body(history, o);
  }
  DecodedEvent decode(std::string_view payload) const override {
    return decode_embeddings(payload);
  }
};

// NIM embeddings: texts, image data URIs, or "<text> <image>" pairs when a turn has both.
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

std::unique_ptr<Endpoint> make_embeddings_endpoint() {
  return std::make_unique<EmbeddingsEndpoint>();
}
std::unique_ptr<Endpoint> make_chat_embeddings_endpoint() {
  return std::make_unique<ChatEmbeddingsEndpoint>();
}
std::unique_ptr<Endpoint> make_nim_embeddings_endpoint() {
  return std::make_unique<NimEmbeddingsEndpoint>();
}

}  // namespace inferperf::endpoint
