#include "core/uuid.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace inferperf::core {

namespace {

// The 16 hex digits of `v`, most significant first, into `out`: each nibble spread into a byte of
// its own, then made ASCII in one step for all eight bytes of a half ('0' + n, plus 39 more for
// n > 9 to reach 'a'), in place of a table lookup per digit (about 50 instructions a uuid less).
void put_hex16(std::uint64_t v, char* out) {
  for (int half = 0; half < 2; ++half) {
    std::uint64_t x = half == 0 ? v >> 32 : v & 0xFFFFFFFFULL;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FULL;  // nibble i in byte i: the last digit first
    const std::uint64_t letters = ((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL;
    x += 0x3030303030303030ULL + letters * 39;
    if constexpr (std::endian::native == std::endian::little) {
      x = __builtin_bswap64(x);  // the first digit first in memory
    }
    std::memcpy(out + 8 * half, &x, 8);
  }
}

}  // namespace

std::string uuid4(std::mt19937_64& rng) {
  std::uint64_t hi = rng();
  std::uint64_t lo = rng();
  hi = (hi & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  std::array<char, 32> digits;
  put_hex16(hi, digits.data());
  put_hex16(lo, digits.data() + 16);
  // 8-4-4-4-12.
  std::string text(36, '-');
  std::memcpy(text.data(), digits.data(), 8);
  std::memcpy(text.data() + 9, digits.data() + 8, 4);
  std::memcpy(text.data() + 14, digits.data() + 12, 4);
  std::memcpy(text.data() + 19, digits.data() + 16, 4);
  std::memcpy(text.data() + 24, digits.data() + 20, 12);
  return text;
}

std::string uuid4() {
  thread_local std::mt19937_64 rng{std::random_device{}() ^
                                   (static_cast<std::uint64_t>(std::random_device{}()) << 32)};
  return uuid4(rng);
}

}  // namespace inferperf::core
