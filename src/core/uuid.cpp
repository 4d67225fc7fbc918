#include "core/uuid.hpp"

#include <cstdint>

namespace inferperf::core {

std::string uuid4(std::mt19937_64& rng) {
  std::uint64_t hi = rng();
  std::uint64_t lo = rng();
  hi = (hi & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(36);
  auto put = [&](std::uint64_t v, int nibbles) {
    for (int i = nibbles - 1; i >= 0; --i) s.push_back(kHex[(v >> (i * 4)) & 0xF]);
  };
  put(hi >> 32, 8);
  s.push_back('-');
  put((hi >> 16) & 0xFFFF, 4);
  s.push_back('-');
  put(hi & 0xFFFF, 4);
  s.push_back('-');
  put(lo >> 48, 4);
  s.push_back('-');
  put(lo & 0xFFFFFFFFFFFFULL, 12);
  return s;
}

std::string uuid4() {
  thread_local std::mt19937_64 rng{std::random_device{}() ^
                                   (static_cast<std::uint64_t>(std::random_device{}()) << 32)};
  return uuid4(rng);
}

}  // namespace inferperf::core
