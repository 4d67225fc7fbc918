#include "config/run_config.hpp"

#include <array>

#include "config/enum_token.hpp"

namespace inferperf::config {

const std::vector<std::string>& endpoint_type_names() {
  static const std::vector<std::string> names = {"chat",
                                                 "completions",
                                                 "embeddings",
                                                 "chat_embeddings",
                                                 "nim_embeddings",
                                                 "nim_rankings",
                                                 "hf_tei_rankings",
                                                 "cohere_rankings",
                                                 "huggingface_generate",
                                                 "image_generation",
                                                 "image_retrieval",
                                                 "video_generation",
                                                 "solido_rag",
                                                 "template",
                                                 "responses",
                                                 "messages",
                                                 "image_edit",
                                                 "raw"};
  return names;
}

const char* to_string(EndpointType t) {
  return endpoint_type_names()[static_cast<std::size_t>(t)].c_str();
}

std::optional<EndpointType> endpoint_type_from(std::string_view name) {
  const auto& names = endpoint_type_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (same_enum_token(names[i], name)) return static_cast<EndpointType>(i);
  }
  return std::nullopt;
}

const char* to_string(ExportLevel l) {
  switch (l) {
    case ExportLevel::kSummary:
      return "summary";
    case ExportLevel::kRaw:
      return "raw";
    case ExportLevel::kRecords:
      break;
  }
  return "records";
}

namespace {

// The spellings of one enum, in the order of its values; a name is looked up in any spelling AIPerf
// 0.11 accepts (same_enum_token).
template <class Enum, std::size_t N>
const char* name_of(Enum v, const std::array<const char*, N>& names) {
  return names[static_cast<std::size_t>(v)];
}

template <class Enum, std::size_t N>
std::optional<Enum> value_of(std::string_view name, const std::array<const char*, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    if (same_enum_token(name, names[i])) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

constexpr std::array<const char*, 2> kModelSelectionNames = {"round_robin", "random"};
constexpr std::array<const char*, 3> kConnectionReuseNames = {"pooled", "never",
                                                              "sticky-user-sessions"};
constexpr std::array<const char*, 1> kUrlStrategyNames = {"round_robin"};
constexpr std::array<const char*, 3> kSamplingStrategyNames = {"sequential", "random", "shuffle"};
constexpr std::array<const char*, 8> kLogLevelNames = {"TRACE",   "DEBUG",   "INFO",  "NOTICE",
                                                       "WARNING", "SUCCESS", "ERROR", "CRITICAL"};
constexpr std::array<const char*, 4> kArrivalPatternNames = {"constant", "poisson", "gamma",
                                                             "concurrency_burst"};

}  // namespace

const char* to_string(ArrivalPattern v) {
  return name_of(v, kArrivalPatternNames);
}
std::optional<ArrivalPattern> arrival_pattern_from(std::string_view name) {
  return value_of<ArrivalPattern>(name, kArrivalPatternNames);
}
const char* to_string(ModelSelection v) {
  return name_of(v, kModelSelectionNames);
}
const char* to_string(ConnectionReuse v) {
  return name_of(v, kConnectionReuseNames);
}
const char* to_string(UrlStrategy v) {
  return name_of(v, kUrlStrategyNames);
}
const char* to_string(SamplingStrategy v) {
  return name_of(v, kSamplingStrategyNames);
}
const char* to_string(LogLevel v) {
  return name_of(v, kLogLevelNames);
}

std::optional<ModelSelection> model_selection_from(std::string_view name) {
  return value_of<ModelSelection>(name, kModelSelectionNames);
}
std::optional<ConnectionReuse> connection_reuse_from(std::string_view name) {
  return value_of<ConnectionReuse>(name, kConnectionReuseNames);
}
std::optional<UrlStrategy> url_strategy_from(std::string_view name) {
  return value_of<UrlStrategy>(name, kUrlStrategyNames);
}
std::optional<SamplingStrategy> sampling_strategy_from(std::string_view name) {
  return value_of<SamplingStrategy>(name, kSamplingStrategyNames);
}
std::optional<LogLevel> log_level_from(std::string_view name) {
  return value_of<LogLevel>(name, kLogLevelNames);
}

}  // namespace inferperf::config
