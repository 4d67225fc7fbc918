#include "config/enum_token.hpp"

#include <algorithm>
#include <cctype>

namespace inferperf::config {

std::string normalise_enum_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (const char ch : token) {
    out += ch == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  const auto first = out.find_first_not_of('-');
  if (first == std::string::npos) return {};
  return out.substr(first, out.find_last_not_of('-') - first + 1);
}

bool same_enum_token(std::string_view a, std::string_view b) {
  return normalise_enum_token(a) == normalise_enum_token(b);
}

std::string trim_list_item(std::string_view item) {
  constexpr std::string_view kBlank = " \t\r\n";
  const auto first = item.find_first_not_of(kBlank);
  if (first == std::string_view::npos) return {};
  return std::string(item.substr(first, item.find_last_not_of(kBlank) - first + 1));
}

std::string url_with_scheme(std::string_view url) {
  if (url.empty() || url.find("://") != std::string_view::npos) return std::string(url);
  const std::size_t colon = url.find(':');
  if (colon != std::string_view::npos && colon > 0 &&
      std::isalpha(static_cast<unsigned char>(url[0])) != 0) {
    const std::string_view name = url.substr(0, colon);
    const bool scheme_like = std::all_of(name.begin(), name.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '+' || ch == '-' ||
             ch == '.';
    });
    // "host:8000" and "host:8000/v1" are a host and a port; "name:text" is a scheme.
    const std::string_view rest = url.substr(colon + 1);
    const std::size_t digits = std::min(rest.find_first_not_of("0123456789"), rest.size());
    const bool port =
        digits == rest.size() ||
        (digits > 0 && (rest[digits] == '/' || rest[digits] == '?' || rest[digits] == '#'));
    if (scheme_like && !port) return std::string(url);
  }
  return "http://" + std::string(url);
}

}  // namespace inferperf::config
