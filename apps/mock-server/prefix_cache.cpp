#include "prefix_cache.hpp"

#include <functional>

namespace inferperf::mock {

namespace {

// FNV-1a over the token's bytes and a separator, chained from the previous state.
std::uint64_t mix(std::uint64_t h, const std::string& token) {
  for (const unsigned char c : token) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  h ^= 0xffU;  // token boundary: "ab","c" differs from "a","bc"
  return h * 1099511628211ULL;
}

}  // namespace

std::size_t PrefixCache::lookup_and_insert(const std::vector<std::string>& prompt) {
  std::vector<std::uint64_t> keys;
  std::uint64_t h = 14695981039346656037ULL;
  for (std::size_t i = 0; i < prompt.size(); ++i) {
    h = mix(h, prompt[i]);
    if ((i + 1) % block_tokens_ == 0) keys.push_back(h);
  }
  std::lock_guard lock(mu_);
  std::size_t hit = 0;
  while (hit < keys.size() && blocks_.count(keys[hit])) ++hit;
  if (blocks_.size() + keys.size() > max_blocks_) blocks_.clear();
  blocks_.insert(keys.begin(), keys.end());
  return hit * block_tokens_;
}

}  // namespace inferperf::mock
