#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

namespace {

// Number of bytes of a valid sequence at in[i], or 0 when the bytes there are not a valid
// sequence; `bad` receives the length of the maximal invalid subpart to replace.
std::size_t valid_length(std::string_view in, std::size_t i, std::size_t& bad) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(in[k]); };
  const unsigned char c = b(i);
  bad = 1;
  if (c < 0x80) return 1;
  std::size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (i + k >= in.size()) {
      bad = k;
      return 0;
    }
    const unsigned char x = b(i + k);
    const unsigned char l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
    if (x < l || x > h) {
      bad = k;
      return 0;
    }
  }
  return need + 1;
}

}  // namespace

bool is_valid_utf8(std::string_view in) {
  std::size_t i = 0, bad = 0;
  while (i < in.size()) {
    std::size_t n = valid_length(in, i, bad);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string sanitize_utf8(std::string_view in) {
  if (is_valid_utf8(in)) return std::string(in);
  std::string out;
  out.reserve(in.size() + 8);
  std::size_t i = 0, bad = 0;
  while (i < in.size()) {
    std::size_t n = valid_length(in, i, bad);
    if (n > 0) {
      out.append(in.substr(i, n));
      i += n;
    } else {
      out.append("\xEF\xBF\xBD");
      i += bad;
    }
  }
  return out;
}

char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t n = utf8_len(c);
  char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < n && i + k < s.size(); ++k) {
    cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  }
  i += n;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace inferperf::tokenizer
