// The mock's prefix-cache emulation: whole blocks of a previously seen prefix count as cached.
#include "prefix_cache.hpp"

#include <gtest/gtest.h>

namespace inferperf::mock {
namespace {

std::vector<std::string> tokens(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

TEST(PrefixCache, WholeBlocksOfASeenPrefixAreCached) {
  PrefixCache cache(4);
  const auto a = tokens("a", 10);
  EXPECT_EQ(cache.lookup_and_insert(a), 0u);  // first sight
  EXPECT_EQ(cache.lookup_and_insert(a), 8u);  // two whole blocks of 4; the tail of 2 is not
  auto b = a;
  b[5] = "other";  // differs inside the second block: only the first block is shared
  EXPECT_EQ(cache.lookup_and_insert(b), 4u);
  EXPECT_EQ(cache.lookup_and_insert(tokens("z", 12)), 0u);
  // Token boundaries count: the same text split differently is another prefix.
  EXPECT_EQ(cache.lookup_and_insert({"ab", "c", "d", "e"}), 0u);
  EXPECT_EQ(cache.lookup_and_insert({"a", "bc", "d", "e"}), 0u);
}

TEST(PrefixCache, ForgetsEverythingAtItsBound) {
  PrefixCache cache(2, 4);
  const auto a = tokens("a", 4);  // 2 blocks
  cache.lookup_and_insert(a);
  cache.lookup_and_insert(tokens("b", 4));  // 4 blocks held: at the bound
  cache.lookup_and_insert(tokens("c", 4));  // would exceed it: everything forgotten first
  EXPECT_EQ(cache.lookup_and_insert(tokens("c", 4)), 4u);
  EXPECT_EQ(cache.lookup_and_insert(a), 0u);
}

}  // namespace
}  // namespace inferperf::mock
