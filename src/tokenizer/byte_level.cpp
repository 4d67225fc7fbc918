#include "tokenizer/byte_level.hpp"

#include <array>
#include <cstdint>

#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

namespace {
std::array<char32_t, 256> build_table() {
  std::array<char32_t, 256> t{};
  int n = 0;
  for (int b = 0; b < 256; ++b) {
    const bool printable =
        (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    t[static_cast<std::size_t>(b)] =
        printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + n++);
  }
  return t;
}
}  // namespace

const std::array<std::string, 256>& byte_to_unicode() {
  static const std::array<std::string, 256> kTable = [] {
    std::array<std::string, 256> out;
    auto t = build_table();
    for (std::size_t b = 0; b < 256; ++b) append_utf8(out[b], t[b]);
    return out;
  }();
  return kTable;
}

std::string bytes_to_byte_level(std::string_view text) {
  const auto& t = byte_to_unicode();
  std::string out;
  out.reserve(text.size() * 2);
  for (unsigned char c : text) out += t[c];
  return out;
}

std::string byte_level_to_bytes(std::string_view text) {
  // Every mapped code point is below 324 (256 + the 68 remapped bytes); -1 marks the others.
  static const std::array<std::int16_t, 324> kInverse = [] {
    std::array<std::int16_t, 324> inv{};
    inv.fill(-1);
    auto t = build_table();
    for (std::size_t b = 0; b < 256; ++b) inv[t[b]] = static_cast<std::int16_t>(b);
    return inv;
  }();
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {  // ASCII maps to itself or is not a mapped code point: the byte either way
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    const std::size_t start = i;
    const char32_t cp = next_code_point(text, i);
    if (cp < kInverse.size() && kInverse[cp] >= 0) {
      out.push_back(static_cast<char>(kInverse[cp]));
    } else {
      out.append(text.substr(start, i - start));
    }
  }
  return out;
}

}  // namespace inferperf::tokenizer
