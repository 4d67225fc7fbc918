// The endpoint table and the factory: one place that knows every --endpoint-type.
#include <algorithm>
#include <array>
#include <cctype>

#include "endpoint/endpoint.hpp"
#include "endpoint/factories.hpp"

namespace inferperf::endpoint {

namespace {

using config::EndpointType;

constexpr std::array<EndpointInfo, 18> kTable = {{
    {EndpointType::kChat, "chat", "v1/chat/completions", "", true, true, true, OutputKind::kText,
     "LLM Metrics"},
    {EndpointType::kCompletions, "completions", "v1/completions", "", true, true, true,
     OutputKind::kText, "LLM Metrics"},
    {EndpointType::kEmbeddings, "embeddings", "v1/embeddings", "", false, false, true,
     OutputKind::kEmbeddings, "Embeddings Metrics"},
    {EndpointType::kChatEmbeddings, "chat_embeddings", "v1/embeddings", "", false, false, true,
     OutputKind::kEmbeddings, "Embeddings Metrics"},
    {EndpointType::kNimEmbeddings, "nim_embeddings", "v1/embeddings", "", false, false, true,
     OutputKind::kEmbeddings, "NIM Embeddings Metrics"},
    {EndpointType::kNimRankings, "nim_rankings", "v1/ranking", "", false, false, true,
     OutputKind::kRankings, "Rankings Metrics"},
    {EndpointType::kHfTeiRankings, "hf_tei_rankings", "rerank", "", false, false, true,
     OutputKind::kRankings, "Ranking Metrics"},
    {EndpointType::kCohereRankings, "cohere_rankings", "v2/rerank", "", false, false, true,
     OutputKind::kRankings, "Ranking Metrics"},
    {EndpointType::kHuggingfaceGenerate, "huggingface_generate", "generate", "generate_stream",
     true, true, true, OutputKind::kText, "LLM Metrics"},
    {EndpointType::kImageGeneration, "image_generation", "v1/images/generations", "", true, false,
     true, OutputKind::kImages, "Image Generation Metrics"},
    {EndpointType::kImageRetrieval, "image_retrieval", "v1/infer", "", false, false, false,
     OutputKind::kImages, "Image Retrieval Metrics"},
    {EndpointType::kVideoGeneration, "video_generation", "v1/videos", "", false, false, true,
     OutputKind::kVideo, "Video Generation Metrics"},
    {EndpointType::kSolidoRag, "solido_rag", "rag/api/prompt", "", true, true, true,
     OutputKind::kText, "SOLIDO RAG Metrics"},
    {EndpointType::kTemplate, "template", "", "", true, true, true, OutputKind::kText,
     "LLM Metrics"},
    {EndpointType::kResponses, "responses", "v1/responses", "", true, true, true, OutputKind::kText,
     "LLM Metrics"},
    {EndpointType::kMessages, "messages", "v1/messages", "", true, true, true, OutputKind::kText,
     "LLM Metrics"},
    {EndpointType::kImageEdit, "image_edit", "v1/images/edits", "", false, false, true,
     OutputKind::kImages, "Image Edit Metrics"},
    {EndpointType::kRaw, "raw", "", "", true, true, true, OutputKind::kText, "LLM Metrics"},
}};

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

const EndpointInfo& endpoint_info(config::EndpointType type) {
  return kTable[static_cast<std::size_t>(type)];
}

core::Result<std::unique_ptr<Endpoint>> create_endpoint(
    config::EndpointType type, const std::vector<std::pair<std::string, nlohmann::json>>& extra) {
  if (type == EndpointType::kTemplate) return make_template_endpoint(extra);
  if (type == EndpointType::kImageEdit) return make_image_edit_endpoint(extra);
  if (type == EndpointType::kRaw) return make_raw_endpoint(extra);
  return make_endpoint(type);
}

std::unique_ptr<Endpoint> make_endpoint(config::EndpointType type) {
  switch (type) {
    case EndpointType::kChat:
      return make_chat_endpoint();
    case EndpointType::kCompletions:
      return make_completions_endpoint();
    case EndpointType::kEmbeddings:
      return make_embeddings_endpoint();
    case EndpointType::kChatEmbeddings:
      return make_chat_embeddings_endpoint();
    case EndpointType::kNimEmbeddings:
      return make_nim_embeddings_endpoint();
    case EndpointType::kNimRankings:
      return make_nim_rankings_endpoint();
    case EndpointType::kHfTeiRankings:
      return make_hf_tei_rankings_endpoint();
    case EndpointType::kCohereRankings:
      return make_cohere_rankings_endpoint();
    case EndpointType::kHuggingfaceGenerate:
      return make_huggingface_generate_endpoint();
    case EndpointType::kImageGeneration:
      return make_image_generation_endpoint();
    case EndpointType::kImageRetrieval:
      return make_image_retrieval_endpoint();
    case EndpointType::kVideoGeneration:
      return make_video_generation_endpoint();
    case EndpointType::kSolidoRag:
      return make_solido_rag_endpoint();
    case EndpointType::kTemplate: {
      auto t = make_template_endpoint({});
      return t ? std::move(*t) : nullptr;
    }
    case EndpointType::kResponses:
      return make_responses_endpoint();
    case EndpointType::kMessages:
      return make_messages_endpoint();
    case EndpointType::kImageEdit:
    case EndpointType::kRaw: {
      auto made = create_endpoint(type, {});
      return made ? std::move(*made) : nullptr;
    }
  }
  return make_chat_endpoint();
}

std::string turn_input_problem(config::EndpointType type, const dataset::Turn& turn) {
  if (type == EndpointType::kRaw) return turn.payload ? "" : raw_needs_payload();
  if (type != EndpointType::kImageEdit || turn.payload) return "";
  if (turn.extra) {
    for (const char* key : {"prompt", "image", "url", "mask"}) {
      if (turn.extra->contains(key))
        return std::string("the row's extra sets '") + key + "', which image_edit sets itself";
    }
  }
  for (const auto& m : turn.media) {
    if (m.kind != dataset::MediaItem::Kind::kImage || m.url.empty()) continue;
    std::string scheme = m.url.substr(0, 8);
    for (auto& ch : scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (scheme.starts_with("http://") || scheme.starts_with("https://")) return "";
    auto file = image_edit_file(m.url);
    return file ? "" : "image_edit: " + file.error().message;
  }
  return image_edit_needs_image();
}

std::vector<std::pair<std::string, std::string>> protocol_headers(
    config::EndpointType type, const std::string& api_key,
    const std::vector<std::pair<std::string, std::string>>& user_headers) {
  auto user_has = [&](std::string_view name) {
    return std::any_of(user_headers.begin(), user_headers.end(),
                       [&](const auto& h) { return same_name(h.first, name); });
  };
  std::vector<std::pair<std::string, std::string>> out;
  if (type == EndpointType::kMessages) {
    // Anthropic authenticates with x-api-key and refuses requests without a protocol version.
    if (!api_key.empty() && !user_has("x-api-key")) out.emplace_back("x-api-key", api_key);
    if (!user_has("anthropic-version")) out.emplace_back("anthropic-version", "2023-06-01");
    return out;
  }
  // As for x-api-key above: an Authorization header the user gave wins over --api-key (two
  // Authorization headers would reach the server otherwise).
  if (!api_key.empty() && !user_has("Authorization"))
    out.emplace_back("Authorization", "Bearer " + api_key);
  return out;
}

}  // namespace inferperf::endpoint
