// The mock's prefix-cache emulation: like vLLM's and llama.cpp's, a prompt whose leading blocks
// of tokens were seen before reports them as cached (usage.prompt_tokens_details.cached_tokens,
// timings.cache_n), so tests can tell whether inferperf primed or shared a server's cache.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace inferperf::mock {

class PrefixCache {
 public:
  // `block_tokens` per cache block (only whole blocks are cached, as the engines do); the cache
  // forgets everything once it holds `max_blocks` (a bound on the mock's memory).
  explicit PrefixCache(std::size_t block_tokens = 16, std::size_t max_blocks = 1 << 20)
      : block_tokens_(block_tokens), max_blocks_(max_blocks) {}

  // The tokens of `prompt` already cached (a multiple of the block size), then caches its blocks.
  std::size_t lookup_and_insert(const std::vector<std::string>& prompt);

 private:
  std::size_t block_tokens_;
  std::size_t max_blocks_;
  std::mutex mu_;
  // A block's key hashes every token before it too, so equal keys mean equal prefixes.
  std::unordered_set<std::uint64_t> blocks_;
};

}  // namespace inferperf::mock
