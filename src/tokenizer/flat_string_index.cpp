#include "tokenizer/flat_string_index.hpp"

namespace inferperf::tokenizer {

void FlatStringIndex::reserve(std::size_t n) {
  std::size_t cap = 16;
  while (cap < 2 * n) cap <<= 1;
  if (cap <= slots_.size()) return;
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(cap, Slot{});
  mask_ = cap - 1;
  for (const auto& s : old) {
    if (s.value == kMissing) continue;
    std::size_t i = hash(key_at(s.offset, s.length)) & mask_;
    while (slots_[i].value != kMissing) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

void FlatStringIndex::grow() {
  reserve(slots_.empty() ? 8 : slots_.size());
}

std::size_t FlatStringIndex::probe(std::string_view key, std::uint64_t h) const {
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  std::size_t i = h & mask_;
  while (slots_[i].value != kMissing &&
         !(slots_[i].tag == tag && key_at(slots_[i].offset, slots_[i].length) == key)) {
    i = (i + 1) & mask_;
  }
  return i;
}

std::int32_t FlatStringIndex::insert(std::string_view key, std::int32_t value) {
  if (2 * (size_ + 1) > slots_.size()) grow();
  const std::uint64_t h = hash(key);
  Slot& slot = slots_[probe(key, h)];
  if (slot.value != kMissing) return slot.value;
  slot = Slot{static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(key.size()),
              value, static_cast<std::uint32_t>(h >> 32)};
  arena_.append(key);
  ++size_;
  return value;
}

std::int32_t FlatStringIndex::find(std::string_view key) const {
  if (slots_.empty()) return kMissing;
  return slots_[probe(key, hash(key))].value;
}

}  // namespace inferperf::tokenizer
