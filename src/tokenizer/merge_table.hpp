// BPE merge ranks: (left id, right id) -> (rank, merged id) in one flat open-addressing array.
// A node-based hash map spent most of tokenizer.json load time in allocation for 10^5 merges.
#pragma once
#include <cstdint>
#include <vector>

namespace inferperf::tokenizer {

struct Merge {
  std::uint32_t rank;
  std::int32_t merged;  // symbol id
};

class MergeTable {
 public:
  void reserve(std::size_t n) {
    std::size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    if (cap <= slots_.size()) return;
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
    for (const Slot& s : old) {
      if (s.key != kEmpty) place(s);
    }
  }
  // Keeps the first merge given for a pair, as the reference implementations do.
  void insert(std::int32_t left, std::int32_t right, Merge m) {
    if (2 * (size_ + 1) > slots_.size()) reserve(size_ + 1 > 8 ? 2 * (size_ + 1) : 16);
    const std::uint64_t k = key(left, right);
    std::size_t i = index(k);
    while (slots_[i].key != kEmpty) {
      if (slots_[i].key == k) return;
      i = (i + 1) & mask_;
    }
    slots_[i] = Slot{k, m};
    ++size_;
  }
  const Merge* find(std::int32_t left, std::int32_t right) const {
    if (slots_.empty()) return nullptr;
    const std::uint64_t k = key(left, right);
    for (std::size_t i = index(k);; i = (i + 1) & mask_) {
      if (slots_[i].key == k) return &slots_[i].merge;
      if (slots_[i].key == kEmpty) return nullptr;
    }
  }
  void prefetch(std::int32_t left, std::int32_t right) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[index(key(left, right))]);
  }
  std::size_t size() const { return size_; }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // ids are never both -1
  struct Slot {
    std::uint64_t key = kEmpty;
    Merge merge{};
  };
  static std::uint64_t key(std::int32_t a, std::int32_t b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
           static_cast<std::uint32_t>(b);
  }
  std::size_t index(std::uint64_t k) const {
    return static_cast<std::size_t>((k * 0x9e3779b97f4a7c15ULL) >> 29) & mask_;
  }
  void place(const Slot& s) {
    std::size_t i = index(s.key);
    while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
    slots_[i] = s;
    ++size_;
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace inferperf::tokenizer
