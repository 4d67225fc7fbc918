// The --endpoint-type enum and its names. A header of its own so the endpoint module, which needs
// only the enum, does not include the whole run configuration.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::config {

enum class EndpointType {
  kChat,
  kCompletions,
  kEmbeddings,
  kChatEmbeddings,
  kNimEmbeddings,
  kNimRankings,
  kHfTeiRankings,
  kCohereRankings,
  kHuggingfaceGenerate,
  kImageGeneration,
  kImageRetrieval,
  kVideoGeneration,
  kSolidoRag,
  kTemplate,
  kResponses,
  kMessages,
  kImageEdit,
  kRaw,
};

// --request-content-type: how a request body goes on the wire.
enum class RequestContentType { kApplicationJson, kMultipartFormData };

const char* to_string(EndpointType t);
// The --endpoint-type spelling's type; nullopt for an unknown name.
std::optional<EndpointType> endpoint_type_from(std::string_view name);
// Every --endpoint-type name, in the order of the enum.
const std::vector<std::string>& endpoint_type_names();

// AIPerf 0.11's `requires_form_data`: the types whose bodies are multipart/form-data (image_edit,
// video_generation). --request-content-type can only restate it.
bool requires_form_data(EndpointType t);
// The content type a run sends: the one given, else the endpoint type's own.
RequestContentType effective_content_type(EndpointType t,
                                          const std::optional<RequestContentType>& given);
// "application/json" | "multipart/form-data".
const char* to_string(RequestContentType t);
// A --request-content-type token: the literal MIME type or AIPerf's member-name spelling
// (application-json, MULTIPART_FORM_DATA), in any case; nullopt for anything else.
std::optional<RequestContentType> request_content_type_from(std::string_view token);

}  // namespace inferperf::config
