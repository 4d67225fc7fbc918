// UTF-8 helpers for the tokenizer: validation with U+FFFD replacement (WHATWG decoder rules, as
// JavaScript's TextDecoder and Python's "replace" handler apply them) and code point iteration.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace inferperf::tokenizer {

// Replaces every maximal invalid subsequence with U+FFFD; valid input is returned unchanged.
std::string sanitize_utf8(std::string_view in);
bool is_valid_utf8(std::string_view in);

// Length in bytes of the code point starting at s[i] (input assumed valid).
inline std::size_t utf8_len(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  return 4;
}

// The length of the longest prefix of `s` of at most `max` bytes that does not end inside a code
// point; `max` itself when no code point starts in the last four bytes (invalid UTF-8), and
// s.size() when it fits.
inline std::size_t utf8_prefix(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s.size();
  for (std::size_t cut = max; cut > 0 && cut + 4 > max; --cut)
    if ((static_cast<unsigned char>(s[cut]) & 0xC0) != 0x80) return cut;
  return max;
}

// Decodes the code point at s[i] (valid input) and advances i.
char32_t next_code_point(std::string_view s, std::size_t& i);
void append_utf8(std::string& out, char32_t cp);

}  // namespace inferperf::tokenizer
