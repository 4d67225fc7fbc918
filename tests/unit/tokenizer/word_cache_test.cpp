// The lock-free word cache: exact answers, bounded size, safe under concurrent use.
#include "tokenizer/word_cache.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace inferperf::tokenizer {
namespace {

std::vector<std::int32_t> ids_for(int i) {
  return std::vector<std::int32_t>(static_cast<std::size_t>(i % 5 + 1), i);
}

TEST(WordCache, FindsWhatWasInsertedAndNothingElse) {
  WordCache cache(100);
  EXPECT_FALSE(cache.find("the").found);
  cache.insert("the", std::vector<std::int32_t>{7});
  cache.insert("", std::vector<std::int32_t>{});
  cache.insert("them", std::vector<std::int32_t>{1, 2});
  auto hit = cache.find("the");
  ASSERT_TRUE(hit.found);
  EXPECT_EQ(std::vector<std::int32_t>(hit.ids.begin(), hit.ids.end()),
            std::vector<std::int32_t>{7});
  EXPECT_TRUE(cache.find("").found);
  EXPECT_EQ(cache.find("them").ids.size(), 2u);
  EXPECT_FALSE(cache.find("th").found);
  cache.insert("the", std::vector<std::int32_t>{9});  // present: the first answer stays
  EXPECT_EQ(cache.find("the").ids[0], 7);
  EXPECT_EQ(cache.size(), 3u);
}

TEST(WordCache, StopsGrowingAtItsLimit) {
  WordCache cache(10);
  for (int i = 0; i < 50; ++i) cache.insert("w" + std::to_string(i), ids_for(i));
  EXPECT_EQ(cache.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(cache.find("w" + std::to_string(i)).found);
  EXPECT_FALSE(cache.find("w10").found);
}

TEST(WordCache, ConcurrentInsertsAndLookupsAgree) {
  WordCache cache(50'000);
  auto work = [&](int offset) {
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < 20'000; ++i) {
        const int k = (i * 7 + offset) % 20'000;
        const std::string word = "word" + std::to_string(k);
        const auto hit = cache.find(word);
        if (hit.found) {
          ASSERT_EQ(std::vector<std::int32_t>(hit.ids.begin(), hit.ids.end()), ids_for(k));
        } else {
          cache.insert(word, ids_for(k));
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(work, t * 5000);
  for (auto& t : threads) t.join();
  EXPECT_EQ(cache.size(), 20'000u);
  for (int k = 0; k < 20'000; ++k) {
    const auto hit = cache.find("word" + std::to_string(k));
    ASSERT_TRUE(hit.found) << k;
    EXPECT_EQ(std::vector<std::int32_t>(hit.ids.begin(), hit.ids.end()), ids_for(k));
  }
}

}  // namespace
}  // namespace inferperf::tokenizer
