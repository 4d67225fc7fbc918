#include "tokenizer/word_cache.hpp"

#include <cstring>
#include <new>

#include "tokenizer/flat_string_index.hpp"

namespace inferperf::tokenizer {

// Laid out in one allocation: the header, then the ids, then the word's bytes.
struct WordCache::Entry {
  std::uint64_t hash;
  std::uint32_t length;
  std::uint32_t count;
  const std::int32_t* ids() const { return reinterpret_cast<const std::int32_t*>(this + 1); }
  const char* word() const { return reinterpret_cast<const char*>(ids() + count); }
  bool matches(std::uint64_t h, std::string_view w) const {
    return hash == h && length == w.size() && std::memcmp(word(), w.data(), w.size()) == 0;
  }
};

struct WordCache::Table {
  explicit Table(std::size_t capacity)
      : mask(capacity - 1), slots(std::make_unique<std::atomic<const Entry*>[]>(capacity)) {
    for (std::size_t i = 0; i < capacity; ++i) slots[i].store(nullptr, std::memory_order_relaxed);
  }
  std::size_t mask;
  std::size_t used = 0;  // written under write_mu_ only
  std::unique_ptr<std::atomic<const Entry*>[]> slots;

  // Writers only; the release store publishes the entry's contents to readers.
  void put(const Entry* e) {
    std::size_t i = e->hash & mask;
    while (slots[i].load(std::memory_order_relaxed)) i = (i + 1) & mask;
    slots[i].store(e, std::memory_order_release);
    ++used;
  }
};

WordCache::WordCache(std::size_t max_entries) : max_entries_(max_entries) {
  tables_.push_back(std::make_unique<Table>(1024));
  table_.store(tables_.back().get(), std::memory_order_release);
}

WordCache::~WordCache() = default;

WordCache::Hit WordCache::find(std::string_view word) const {
  const Table* t = table_.load(std::memory_order_acquire);
  const std::uint64_t h = FlatStringIndex::hash(word);
  for (std::size_t i = h & t->mask;; i = (i + 1) & t->mask) {
    const Entry* e = t->slots[i].load(std::memory_order_acquire);
    if (!e) return {};
    if (e->matches(h, word)) return {true, {e->ids(), e->count}};
  }
}

void WordCache::insert(std::string_view word, std::span<const std::int32_t> ids) {
  const std::uint64_t h = FlatStringIndex::hash(word);
  std::lock_guard lock(write_mu_);
  Table* t = tables_.back().get();
  if (t->used >= max_entries_) return;
  for (std::size_t i = h & t->mask;; i = (i + 1) & t->mask) {
    const Entry* e = t->slots[i].load(std::memory_order_relaxed);
    if (!e) break;
    if (e->matches(h, word)) return;  // another thread cached it first
  }
  const std::size_t id_bytes = ids.size() * sizeof(std::int32_t);
  auto block = std::make_unique<char[]>(sizeof(Entry) + id_bytes + word.size());
  const auto* e = new (block.get())
      Entry{h, static_cast<std::uint32_t>(word.size()), static_cast<std::uint32_t>(ids.size())};
  // memcpy from an empty span's null pointer is undefined even for zero bytes.
  if (id_bytes) std::memcpy(block.get() + sizeof(Entry), ids.data(), id_bytes);
  if (!word.empty()) std::memcpy(block.get() + sizeof(Entry) + id_bytes, word.data(), word.size());
  entries_.push_back(std::move(block));
  if (2 * (t->used + 1) > t->mask + 1) {
    // Readers keep using the old table until the new one, fully built, is published.
    auto bigger = std::make_unique<Table>(2 * (t->mask + 1));
    for (std::size_t i = 0; i <= t->mask; ++i) {
      if (const Entry* old = t->slots[i].load(std::memory_order_relaxed)) bigger->put(old);
    }
    bigger->put(e);
    tables_.push_back(std::move(bigger));
    table_.store(tables_.back().get(), std::memory_order_release);
    return;
  }
  t->put(e);
}

std::size_t WordCache::size() const {
  std::lock_guard lock(const_cast<std::mutex&>(write_mu_));
  return tables_.back()->used;
}

}  // namespace inferperf::tokenizer
