// Open-addressing hash index from strings to int32 values, with every key stored once in one
// arena. Built for tokenizer vocabularies: ~10^5 short keys loaded once, then only looked up.
#pragma once
#include <cstdint>
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

  static std::uint64_t hash(std::string_view s) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return h ^ (h >> 29);
  }

 private:
  struct Slot {
    std::uint32_t offset = 0, length = 0;
    std::int32_t value = kMissing;
    std::uint32_t tag = 0;  // upper hash bits, to skip most string compares
  };
  void grow();

  std::vector<Slot> slots_;
  std::string arena_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
};

}  // namespace inferperf::tokenizer
