// The string -> id index under vocabularies and word caches.
#include "tokenizer/flat_string_index.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>

namespace inferperf::tokenizer {
namespace {

TEST(FlatStringIndex, AgreesWithAMapForKeysOfEveryLength) {
  std::mt19937 rng(3);
  std::map<std::string, std::int32_t> expected;
  FlatStringIndex index;
  for (std::int32_t v = 0; v < 20000; ++v) {
    std::string key(rng() % 24, '\0');
    for (auto& c : key) c = static_cast<char>(rng() % 4);  // tiny alphabet: many near-collisions
    const auto [it, fresh] = expected.emplace(key, v);
    EXPECT_EQ(index.insert(key, v), it->second) << "a present key keeps its first value";
    (void)fresh;
  }
  EXPECT_EQ(index.size(), expected.size());
  for (const auto& [key, value] : expected) EXPECT_EQ(index.find(key), value);
  EXPECT_EQ(index.find(std::string(30, 'x')), FlatStringIndex::kMissing);
  std::size_t visited = 0;
  index.for_each([&](std::string_view key, std::int32_t value) {
    EXPECT_EQ(expected.at(std::string(key)), value);
    ++visited;
  });
  EXPECT_EQ(visited, expected.size());
}

TEST(FlatStringIndex, EmptyIndexFindsNothingAndEmptyKeyIsAKey) {
  FlatStringIndex index;
  EXPECT_EQ(index.find("a"), FlatStringIndex::kMissing);
  EXPECT_EQ(index.insert("", 7), 7);
  EXPECT_EQ(index.find(""), 7);
  EXPECT_EQ(index.find("a"), FlatStringIndex::kMissing);
}

TEST(FlatStringIndex, HashSeesEveryByteOfShortKeys) {
  std::set<std::uint64_t> hashes;
  std::string key = "abcdefghijklmnop";
  for (std::size_t len = 1; len <= key.size(); ++len) {
    for (std::size_t pos = 0; pos < len; ++pos) {
      std::string k = key.substr(0, len);
      k[pos] = static_cast<char>(k[pos] + 1);
      hashes.insert(FlatStringIndex::hash(k));
    }
  }
  EXPECT_EQ(hashes.size(), 136u);  // 1 + 2 + ... + 16 distinct keys, no collisions
}

}  // namespace
}  // namespace inferperf::tokenizer
