// The endpoint types' wire encodings: which types send multipart/form-data, and the
// --request-content-type spellings (the enum's names live with the run configuration's).
#include "config/endpoint_type.hpp"

#include <algorithm>

#include "config/enum_token.hpp"

namespace inferperf::config {

bool requires_form_data(EndpointType t) {
  return t == EndpointType::kImageEdit || t == EndpointType::kVideoGeneration;
}

RequestContentType effective_content_type(EndpointType t,
                                          const std::optional<RequestContentType>& given) {
  if (given) return *given;
  return requires_form_data(t) ? RequestContentType::kMultipartFormData
                               : RequestContentType::kApplicationJson;
}

const char* to_string(RequestContentType t) {
  return t == RequestContentType::kMultipartFormData ? "multipart/form-data" : "application/json";
}

std::optional<RequestContentType> request_content_type_from(std::string_view token) {
  // AIPerf 0.11 matches the member name (application-json), YAML the value (application/json):
  // both are read here, so '/' counts as the separator it stands for.
  std::string name = normalise_enum_token(token);
  std::replace(name.begin(), name.end(), '/', '-');
  if (name == "application-json") return RequestContentType::kApplicationJson;
  if (name == "multipart-form-data") return RequestContentType::kMultipartFormData;
  return std::nullopt;
}

}  // namespace inferperf::config
