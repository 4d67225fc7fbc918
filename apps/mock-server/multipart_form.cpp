#include "multipart_form.hpp"

#include <algorithm>
#include <cctype>

namespace inferperf::mock {

namespace {

std::string form_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim_form(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value of parameter `key` in "a; key=value; ..." (quotes removed), or nullopt.
std::optional<std::string> form_param(std::string_view header, std::string_view key) {
  std::size_t pos = 0;
  while ((pos = header.find(';', pos)) != std::string_view::npos) {
    std::string_view rest = trim_form(header.substr(pos + 1));
    ++pos;
    const std::size_t eq = rest.find('=');
    if (eq == std::string_view::npos || form_lower(trim_form(rest.substr(0, eq))) != key) continue;
    std::string_view v = trim_form(rest.substr(eq + 1));
    if (v.starts_with('"')) {
      const std::size_t close = v.find('"', 1);
      return std::string(v.substr(1, close == std::string_view::npos ? v.npos : close - 1));
    }
    return std::string(trim_form(v.substr(0, v.find(';'))));
  }
  return std::nullopt;
}

std::optional<std::string> parse_form_part_headers(std::string_view head, FormPart& part) {
  bool named = false;
  while (!head.empty()) {
    const std::size_t nl = head.find("\r\n");
    const std::string_view line = head.substr(0, nl);
    head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 2);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return "a part header line without ':'";
    const std::string name = form_lower(trim_form(line.substr(0, colon)));
    const std::string_view value = trim_form(line.substr(colon + 1));
    if (name == "content-type") {
      part.content_type = std::string(value);
    } else if (name == "content-disposition") {
      if (!form_lower(value).starts_with("form-data")) return "a part that is not form-data";
      auto n = form_param(value, "name");
      if (!n) return "a form-data part without a name";
      part.name = std::move(*n);
      part.filename = form_param(value, "filename");
      named = true;
    }
  }
  if (!named) return "a part without Content-Disposition";
  return std::nullopt;
}

}  // namespace

bool is_multipart_form(std::string_view content_type) {
  return form_lower(trim_form(content_type.substr(0, content_type.find(';')))) ==
         "multipart/form-data";
}

std::optional<std::string> parse_multipart_form(std::string_view content_type,
                                                std::string_view body, std::vector<FormPart>& out) {
  if (!is_multipart_form(content_type)) return std::string("the body is not multipart/form-data");
  const auto boundary = form_param(content_type, "boundary");
  if (!boundary || boundary->empty()) return std::string("multipart/form-data without a boundary");
  const std::string delimiter = "--" + *boundary;
  std::size_t pos = body.find(delimiter);
  if (pos == std::string_view::npos) return std::string("no multipart boundary in the body");
  for (;;) {
    pos += delimiter.size();
    if (body.substr(pos, 2) == "--") return std::nullopt;  // the closing delimiter
    if (body.substr(pos, 2) != "\r\n") return std::string("a boundary line not ended by CRLF");
    pos += 2;
    const std::size_t head_end = body.find("\r\n\r\n", pos);
    if (head_end == std::string_view::npos) return std::string("a part without headers");
    FormPart part;
    if (auto e = parse_form_part_headers(body.substr(pos, head_end - pos), part)) return e;
    const std::size_t data_start = head_end + 4;
    const std::size_t next = body.find("\r\n" + delimiter, data_start);
    if (next == std::string_view::npos) return std::string("no closing multipart boundary");
    part.data = std::string(body.substr(data_start, next - data_start));
    out.push_back(std::move(part));
    pos = next + 2;
  }
}

}  // namespace inferperf::mock
