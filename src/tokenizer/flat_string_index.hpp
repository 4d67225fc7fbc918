// Open-addressing hash index from strings to int32 values, with every key stored once in one
// arena. Built for tokenizer vocabularies: ~10^5 short keys loaded once, then only looked up.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::tokenizer {

class FlatStringIndex {
 public:
  static constexpr std::int32_t kMissing = -1;

  void reserve(std::size_t n);
  // Inserts key -> value unless the key is present; returns the value now stored.
  std::int32_t insert(std::string_view key, std::int32_t value);
  std::int32_t find(std::string_view key) const;
  // Starts loading the slot `key` hashes to: batch loads look keys up a few positions ahead.
  void prefetch(std::string_view key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash(key) & mask_]);
  }
  std::size_t size() const { return size_; }
  // The stored copy of a key previously inserted with that value's handle.
  std::string_view key_at(std::uint32_t offset, std::uint32_t length) const {
    return std::string_view(arena_).substr(offset, length);
  }
  // Visits every (key, value).
  template <typename F>
  void for_each(F&& f) const {
    for (const auto& s : slots_) {
      if (s.value != kMissing) f(key_at(s.offset, s.length), s.value);
    }
  }

  // A word-at-a-time multiply-xorshift hash: vocabulary keys are short, and the byte-serial FNV
  // used before spent most of a lookup in its multiply chain.
  static std::uint64_t hash(std::string_view s) {
    constexpr std::uint64_t kMul1 = 0xbf58476d1ce4e5b9ULL, kMul2 = 0x94d049bb133111ebULL;
    const char* p = s.data();
    std::size_t n = s.size();
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * kMul2);
    for (; n >= 8; n -= 8, p += 8) {
      h = (h ^ load64(p)) * kMul1;
      h ^= h >> 31;
    }
    if (n >= 4) {  // two overlapping 4-byte loads cover 4..7 bytes
      h = (h ^ (load32(p) << 32 | load32(p + n - 4))) * kMul2;
    } else if (n > 0) {
      const auto b = [&](std::size_t i) {
        return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i]));
      };
      h = (h ^ (b(0) << 16 | b(n / 2) << 8 | b(n - 1))) * kMul2;
    }
    h ^= h >> 32;
    h *= kMul1;
    return h ^ (h >> 29);
  }

 private:
  struct Slot {
    std::uint32_t offset = 0, length = 0;
    std::int32_t value = kMissing;
    std::uint32_t tag = 0;  // upper hash bits, to skip most string compares
  };
  void grow();
  // The slot holding `key`, or the empty slot where it would go.
  std::size_t probe(std::string_view key, std::uint64_t h) const;
  static std::uint64_t load64(const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  static std::uint64_t load32(const char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }

  std::vector<Slot> slots_;
  std::string arena_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
};

}  // namespace inferperf::tokenizer
