// multipart/form-data bodies (RFC 7578) for the endpoint types that upload files (image_edit,
// video_generation). The endpoint builds its body as JSON, as for every other type, so that
// inputs.json and the raw export show it; a file is a JSON object {"b64_data": base64,
// "filename", "content_type"} there. encode_multipart turns that object into the wire bytes.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "core/error.hpp"

namespace inferperf::endpoint {

struct MultipartBody {
  std::string content_type;  // "multipart/form-data; boundary=..."
  std::string bytes;
};

// One part per top-level member, in order, as AIPerf 0.11 builds its forms: null members are
// left out; a file object becomes a file part (its base64 decoded; filename defaults to the
// member's name, content type to application/octet-stream); a list becomes one part per item
// under the same name; true/false are sent as "true"/"false", strings as they are, numbers and
// nested objects as JSON text. `boundary` must not occur in any value (a random one never does).
// Errors: the body is not an object, or a file's b64_data is not valid base64.
core::Result<MultipartBody> encode_multipart(const nlohmann::ordered_json& body,
                                             std::string_view boundary);

// The boundary of one request: "inferperf-" and the hex digits of `seed` (a request id).
std::string multipart_boundary(std::string_view seed);

// A file member of a multipart body's JSON form.
nlohmann::ordered_json file_field(std::string b64_data, std::string filename,
                                  std::string content_type);

}  // namespace inferperf::endpoint
