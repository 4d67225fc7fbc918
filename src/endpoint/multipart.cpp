#include "endpoint/multipart.hpp"

#include <array>
#include <cctype>

#include "core/base64.hpp"

namespace inferperf::endpoint {

namespace {

// A field name or file name in a quoted header parameter: quotes and line breaks
// percent-encoded as browsers do (HTML's multipart/form-data encoding).
std::string multipart_quoted(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"') {
      out += "%22";
    } else if (ch == '\r') {
      out += "%0D";
    } else if (ch == '\n') {
      out += "%0A";
    } else {
      out += ch;
    }
  }
  return out;
}

std::string multipart_value_text(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool multipart_is_file(const nlohmann::ordered_json& v) {
  const auto it = v.is_object() ? v.find("b64_data") : v.end();
  return v.is_object() && it != v.end() && it->is_string();
}

std::string multipart_string_member(const nlohmann::ordered_json& v, const char* key,
                                    std::string fallback) {
  const auto it = v.find(key);
  if (it == v.end() || !it->is_string() || it->get<std::string>().empty()) return fallback;
  return it->get<std::string>();
}

}  // namespace

std::string multipart_boundary(std::string_view seed) {
  std::string b = "inferperf-";
  for (char ch : seed) {
    if (std::isxdigit(static_cast<unsigned char>(ch)))
      b += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return b;
}

nlohmann::ordered_json file_field(std::string b64_data, std::string filename,
                                  std::string content_type) {
  return {{"b64_data", std::move(b64_data)},
          {"filename", std::move(filename)},
          {"content_type", std::move(content_type)}};
}

core::Result<MultipartBody> encode_multipart(const nlohmann::ordered_json& body,
                                             std::string_view boundary) {
  if (!body.is_object()) {
    return core::Error{core::ErrorKind::kInput,
                       "a multipart/form-data body must be a JSON object of fields", "", 0, ""};
  }
  MultipartBody out;
  out.content_type = "multipart/form-data; boundary=" + std::string(boundary);
  auto open_part = [&](const std::string& name) {
    out.bytes += "--";
    out.bytes += boundary;
    out.bytes += "\r\nContent-Disposition: form-data; name=\"";
    out.bytes += multipart_quoted(name);
    out.bytes += '"';
  };
  for (const auto& [key, value] : body.items()) {
    if (value.is_null()) continue;
    if (multipart_is_file(value)) {
      auto bytes = core::base64_decode_strict(value["b64_data"].get<std::string>());
      if (!bytes) {
        return core::Error{core::ErrorKind::kInput,
                           "field '" + key + "': b64_data is not valid base64", "", 0, key};
      }
      open_part(key);
      out.bytes += "; filename=\"";
      out.bytes += multipart_quoted(multipart_string_member(value, "filename", key));
      out.bytes += "\"\r\nContent-Type: ";
      out.bytes += multipart_string_member(value, "content_type", "application/octet-stream");
      out.bytes += "\r\n\r\n";
      out.bytes += *bytes;
      out.bytes += "\r\n";
      continue;
    }
    const bool list = value.is_array();
    const std::size_t n = list ? value.size() : 1;
    for (std::size_t i = 0; i < n; ++i) {
      open_part(key);
      out.bytes += "\r\n\r\n";
      out.bytes += multipart_value_text(list ? value[i] : value);
      out.bytes += "\r\n";
    }
  }
  out.bytes += "--";
  out.bytes += boundary;
  out.bytes += "--\r\n";
  return out;
}

}  // namespace inferperf::endpoint
