// Word -> token ids cache shared by every thread that encodes with one tokenizer. Lookups take no
// lock: they read the current table through an acquire load, and entries and tables are immutable
// once published and live as long as the cache. Inserts (misses, which cost a BPE merge anyway)
// take a mutex; a table that gets half full is replaced by one twice the size, so the table stays
// as small as the vocabulary seen. After `max_entries` words nothing more is cached.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

namespace inferperf::tokenizer {

class WordCache {
 public:
  explicit WordCache(std::size_t max_entries = 200'000);
  ~WordCache();
  WordCache(const WordCache&) = delete;
  WordCache& operator=(const WordCache&) = delete;

  struct Hit {
    bool found = false;
    std::span<const std::int32_t> ids;
  };
  Hit find(std::string_view word) const;
  // Caches `ids` for `word` unless it is already there or the cache is full.
  void insert(std::string_view word, std::span<const std::int32_t> ids);
  std::size_t size() const;

 private:
  struct Entry;
  struct Table;

  std::size_t max_entries_;
  std::atomic<const Table*> table_;
  std::mutex write_mu_;                         // inserts and growth
  std::vector<std::unique_ptr<Table>> tables_;  // every table ever published (readers may hold one)
  std::vector<std::unique_ptr<char[]>> entries_;
};

}  // namespace inferperf::tokenizer
