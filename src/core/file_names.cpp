#include "core/file_names.hpp"

#include <cctype>

#include <algorithm>

namespace inferperf::core {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one (overlong forms,
// surrogates and values above U+10FFFF included).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  }
  return n;
}

bool is_control(unsigned char c) {
  return c < 0x20 || c == 0x7F;
}

}  // namespace

bool has_control_chars(std::string_view name) {
  for (char c : name) {
    if (is_control(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

std::string safe_file_name(std::string_view name, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(name.size(), max_bytes));
  for (std::size_t i = 0; i < name.size();) {
    const std::size_t n = utf8_length(name, i);
    std::string_view piece = name.substr(i, n == 0 ? 1 : n);
    i += piece.size();
    const unsigned char c = static_cast<unsigned char>(piece.front());
    if (n == 0 || is_control(c) || c == '/' || c == '\\') piece = "_";
    if (out.size() + piece.size() > max_bytes) break;
    out.append(piece);
  }
  if (!out.empty() && out.front() == '.') out.front() = '_';
  if (out.empty()) out = "_";
  return out;
}

bool has_image_extension(std::string_view file_name) {
  const std::size_t dot = file_name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 ||
      file_name.find('/', dot) != std::string_view::npos)
    return false;
  std::string ext(file_name.substr(dot));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

}  // namespace inferperf::core
