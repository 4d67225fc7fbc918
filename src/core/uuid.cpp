#include "core/uuid.hpp"

#include <array>
#include <cstdint>

namespace inferperf::core {

std::string uuid4(std::mt19937_64& rng) {
  std::uint64_t hi = rng();
  std::uint64_t lo = rng();
  hi = (hi & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  // Written into a buffer and copied once: a push_back per digit was most of its cost.
  static constexpr char kHex[] = "0123456789abcdef";
  std::array<char, 36> text;
  std::size_t at = 0;
  auto put = [&](std::uint64_t v, int nibbles) {
    for (int i = nibbles - 1; i >= 0; --i) text[at++] = kHex[(v >> (i * 4)) & 0xF];
  };
  put(hi >> 32, 8);
  text[at++] = '-';
  put((hi >> 16) & 0xFFFF, 4);
  text[at++] = '-';
  put(hi & 0xFFFF, 4);
  text[at++] = '-';
  put(lo >> 48, 4);
  text[at++] = '-';
  put(lo & 0xFFFFFFFFFFFFULL, 12);
  return std::string(text.data(), text.size());
}

std::string uuid4() {
  thread_local std::mt19937_64 rng{std::random_device{}() ^
                                   (static_cast<std::uint64_t>(std::random_device{}()) << 32)};
  return uuid4(rng);
}

}  // namespace inferperf::core
