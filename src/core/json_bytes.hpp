// The bytes that end a plain run of text inside a JSON string: a quote, a backslash, a control
// character (below 0x20) or a byte of UTF-8 (0x80 and above). The streamed-chunk scanner
// (endpoint/chunk_scan.cpp) stops its string runs there, and the records writer
// (records/json_text.cpp) copies text without escaping only when it has none.
#pragma once
#include <cstdint>

namespace inferperf::core {

constexpr bool json_string_stop(unsigned char c) {
  return c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
}

// The bytes of `w` that end a plain run, each flagged by its top bit. The lowest flagged byte is
// exact, and so is whether any byte is flagged: the borrows of these bit tricks ("has a zero
// byte", "has a byte less than n") only run upward, from a byte that truly is one.
constexpr std::uint64_t json_string_stops(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
  const auto zero_byte = [](std::uint64_t v) { return (v - kOnes) & ~v & kHighBits; };
  return zero_byte(w ^ (kOnes * '"')) | zero_byte(w ^ (kOnes * '\\')) |
         ((w - kOnes * 0x20) & ~w & kHighBits) | (w & kHighBits);
}

}  // namespace inferperf::core
