// RFC 9110's token characters (5.6.2 tchar): a field name's, and a list element's in fields such
// as Connection and Transfer-Encoding.
#pragma once
#include <array>
#include <string_view>

namespace inferperf::core {

inline constexpr std::array<bool, 256> kHttpTokenChars = [] {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = true;
  for (const char c : std::string_view("!#$%&'*+-.^_`|~")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

inline bool is_http_token_char(char c) {
  return kHttpTokenChars[static_cast<unsigned char>(c)];
}

}  // namespace inferperf::core
