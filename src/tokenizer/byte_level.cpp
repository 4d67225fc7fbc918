#include "tokenizer/byte_level.hpp"

#include <unordered_map>

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
  static const std::unordered_map<char32_t, unsigned char> kInverse = [] {
    std::unordered_map<char32_t, unsigned char> m;
    auto t = build_table();
    for (std::size_t b = 0; b < 256; ++b) m[t[b]] = static_cast<unsigned char>(b);
    return m;
  }();
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    const char32_t cp = next_code_point(text, i);
    if (auto it = kInverse.find(cp); it != kInverse.end()) {
      out.push_back(static_cast<char>(it->second));
    } else {
      out.append(text.substr(start, i - start));
    }
  }
  return out;
}

}  // namespace inferperf::tokenizer
