// A chat-shaped request (multimodal embedders take messages) answered with embeddings.
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

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

}  // namespace

std::unique_ptr<Endpoint> make_chat_embeddings_endpoint() {
  return std::make_unique<ChatEmbeddingsEndpoint>();
}

}  // namespace inferperf::endpoint
