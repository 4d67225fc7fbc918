// The prompt corpus: a shipped public-domain text, tokenized once, sampled as token windows.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

class PieceCounter;

// Ambrose Bierce's "The Devil's Dictionary" (1911, public domain), embedded in the binary.
// Provenance: src/dataset/corpus/README.md.
std::string_view builtin_corpus_text();

// The corpus chunking (docs/decisions.md, synthetic prompts): lines stripped, blank lines dropped,
// consecutive lines joined with one space until a chunk holds at least `min_chars` characters (the
// last chunk may be shorter).
std::vector<std::string> corpus_chunks(std::string_view text, std::size_t min_chars = 10000);

// The corpus as one list of token ids for one tokenizer. Every chunk is tokenized with a leading
// space so that a window crossing a chunk seam, or wrapping from the end to the start, does not
// glue two words together.
class TokenCorpus {
 public:
  TokenCorpus(std::string_view text, const tokenizer::Tokenizer& tok);

  std::size_t size() const { return ids_.size(); }
  const std::vector<std::int32_t>& ids() const { return ids_; }
  // The decoded text of `n` consecutive ids from `start`, wrapping around the end as often as
  // needed.
  std::string window_text(std::size_t start, std::size_t n) const;

 private:
  const tokenizer::Tokenizer& tok_;
  std::vector<std::int32_t> ids_;
};

// A corpus window, without leading or trailing spaces, that `count` gives exactly `tokens` tokens:
// the window length is corrected by the re-tokenization difference a few times; what boundary
// merges still leave over is closed with short words (extend_to_exact).
std::string generate_corpus_prompt(int tokens, std::mt19937_64& rng, const TokenCorpus& corpus,
                                   const PieceCounter& count);

}  // namespace inferperf::dataset
