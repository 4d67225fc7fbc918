// multipart/form-data request bodies (RFC 7578), as the image edit and video routes receive them:
// parts with their name, file name, content type and bytes.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::mock {

struct FormPart {
  std::string name;
  std::optional<std::string> filename;  // set: a file part
  std::string content_type;             // "" when the part has none
  std::string data;
};

// Whether a Content-Type value is multipart/form-data (any case, any parameters).
bool is_multipart_form(std::string_view content_type);

// Splits `body` by the boundary of `content_type`; nullopt on success, else what is malformed
// (no boundary, no closing delimiter, a part without headers or a form-data name).
std::optional<std::string> parse_multipart_form(std::string_view content_type,
                                                std::string_view body, std::vector<FormPart>& out);

}  // namespace inferperf::mock
