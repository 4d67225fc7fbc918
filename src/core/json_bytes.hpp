// The bytes that end a plain run of text inside a JSON string: a quote, a backslash, a control
// character (below 0x20) or a byte of UTF-8 (0x80 and above). The streamed-chunk scanner
// (endpoint/chunk_scan.cpp) stops its string runs there, and the records writer
// (records/json_text.cpp) copies text without escaping only when it has none.
#pragma once
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <bit>
#include <cstdint>
#include <cstring>

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

// json_plain_run_end's steps without SSE2 (and for its texts of 8 to 15 bytes): 8 bytes a step,
// the last step overlapping bytes already read. Apart so that it is tested on every target.
inline const char* json_plain_run_end_by_words(const char* p, const char* end) {
  if (end - p >= 8) {
    const auto stops = [](const char* at) {
      std::uint64_t w = 0;
      std::memcpy(&w, at, 8);
      // The first byte in memory as the word's lowest, where the flags are exact.
      if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
      return json_string_stops(w);
    };
    for (; end - p > 8; p += 8) {
      if (const std::uint64_t m = stops(p)) return p + std::countr_zero(m) / 8;
    }
    const char* last = end - 8;
    const std::uint64_t m = stops(last);
    return m != 0 ? last + std::countr_zero(m) / 8 : end;
  }
  while (p != end && !json_string_stop(static_cast<unsigned char>(*p))) ++p;
  return p;
}

// The first byte in [p, end) that ends a plain run, or `end`: 16 bytes a step where SSE2 is
// there, else 8; a text of at least a step ends with one step over its last bytes, overlapping
// bytes already read (which hold no stop), instead of a byte loop.
inline const char* json_plain_run_end(const char* p, const char* end) {
#ifdef __SSE2__
  if (end - p >= 16) {
    // '"', '\\', and (signed) below ' ', which takes both control characters and the UTF-8
    // bytes 0x80-0xFF.
    const auto stops = [](const char* at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                    _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                       _mm_cmplt_epi8(v, _mm_set1_epi8(' ')));
      return static_cast<unsigned>(_mm_movemask_epi8(hit));
    };
    for (; end - p > 16; p += 16) {
      if (const unsigned m = stops(p)) return p + std::countr_zero(m);
    }
    const char* last = end - 16;
    const unsigned m = stops(last);
    return m != 0 ? last + std::countr_zero(m) : end;
  }
#endif
  return json_plain_run_end_by_words(p, end);
}

}  // namespace inferperf::core
