#include "core/byte_size.hpp"

#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <limits>

namespace inferperf::core {

namespace {

// The multiplier of a suffix ("", "k", "kb", "kib", ...); 0 for an unknown one.
std::uint64_t suffix_multiplier(std::string_view suffix) {
  std::string s;
  for (const char c : suffix) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.empty() || s == "b") return 1;
  static constexpr std::array<char, 4> kLetters{'k', 'm', 'g', 't'};
  std::uint64_t mult = 1;
  for (const char letter : kLetters) {
    mult *= 1024;
    if (s == std::string(1, letter) || s == std::string{letter, 'b'} ||
        s == std::string{letter, 'i', 'b'})
      return mult;
  }
  return 0;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  constexpr std::uint64_t kMax = std::uint64_t{1} << 63;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (i == 0) return std::nullopt;
  const std::uint64_t mult = suffix_multiplier(text.substr(i));
  if (mult == 0 || value > kMax / mult) return std::nullopt;
  return value * mult;
}

std::string format_byte_size(std::uint64_t bytes) {
  static constexpr std::array<const char*, 5> kUnits{"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.1f %s", value, kUnits[unit]);
  return buf.data();
}

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

}  // namespace inferperf::core
