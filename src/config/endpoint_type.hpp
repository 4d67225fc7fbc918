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
};

const char* to_string(EndpointType t);
// The --endpoint-type spelling's type; nullopt for an unknown name.
std::optional<EndpointType> endpoint_type_from(std::string_view name);
// Every --endpoint-type name, in the order of the enum.
const std::vector<std::string>& endpoint_type_names();

}  // namespace inferperf::config
