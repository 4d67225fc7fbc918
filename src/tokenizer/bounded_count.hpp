// Token counts of text a server sent (outputs), bounded in time and memory per text: a hostile or
// broken server can answer with hundreds of megabytes, and the client must not spend minutes and
// gigabytes counting them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tokenizer/tokenizer.hpp"

namespace inferperf::tokenizer {

// Texts up to this size are counted exactly (docs/limits.md): far beyond any real output (8 MiB is
// about two million tokens), small enough to count in well under a second.
inline constexpr std::size_t kMaxExactCountBytes = 8u << 20;
// A longer text's count is estimated from the tokens of its first this-many bytes, scaled by bytes.
inline constexpr std::size_t kEstimateSampleBytes = 1u << 20;

struct BoundedCount {
  std::int64_t tokens = 0;
  bool estimated = false;  // scaled from a sample rather than counted
};

// tok.count(text) when text fits in `max_exact` bytes; else the tokens of its first `sample` bytes
// (cut at a code point boundary) times text.size() / sample, rounded, and flagged estimated.
BoundedCount count_bounded(const Tokenizer& tok, std::string_view text,
                           std::size_t max_exact = kMaxExactCountBytes,
                           std::size_t sample = kEstimateSampleBytes);

}  // namespace inferperf::tokenizer
