#include "config/enum_token.hpp"

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

}  // namespace inferperf::config
