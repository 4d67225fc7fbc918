// Hash-id prompt blocks (trace-formats §1.1): every hash id names one block of text generated once
// from a seed derived from the id, so every request that references the id carries byte-identical
// text and the server's prefix cache sees the reuse the trace recorded.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dataset/conversation.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

// The finished blocks: read-only, shared by every worker thread.
class PromptBlocks {
 public:
  struct Block {
    int tokens = 0;
    std::string text;
  };
  // The prompt: the blocks' texts joined with single spaces, then the tail.
  std::string assemble(const SynthesizedPrompt& p) const;
  std::size_t size() const { return blocks_.size(); }
  std::size_t text_bytes() const;
  const Block* find(std::int64_t id) const;

 private:
  friend class PromptBlockBuilder;
  std::unordered_map<std::int64_t, Block> blocks_;
};

// Collects what the rows need while a trace loads, then generates every block (on all cores).
class PromptBlockBuilder {
 public:
  // `tok` null: one prompt token is one short common word (server-side token counts).
  PromptBlockBuilder(int block_size, const tokenizer::Tokenizer* tok, std::uint64_t seed);
  ~PromptBlockBuilder();

  int block_size() const { return block_size_; }
  // Checks a row's layout (§1.1 step 3): the error text names the input length, the number of
  // hash ids and the block size.
  std::optional<std::string> check_layout(const std::vector<std::int64_t>& ids,
                                          int input_length) const;
  // check_layout, then records the size each of the row's blocks must have.
  std::optional<std::string> require(const std::vector<std::int64_t>& ids, int input_length);
  // Tokens of every block required so far (each hash id counted once).
  long long required_tokens() const { return required_tokens_; }
  // Tokens the row's blocks cover (the rest of input_length is an unshared tail).
  int covered_tokens(const std::vector<std::int64_t>& ids, int input_length) const;
  // A fresh, unshared text of exactly `tokens` tokens, deterministic in `key`; `follows`: it comes
  // after other text in the prompt (counted after a word and a space).
  std::string fresh_text(int tokens, std::uint64_t key, bool follows) const;
  // Generates every required block, and the fresh text of every prompt in `fresh` (its
  // fresh_tokens into its tail), on all cores; the builder is spent afterwards.
  std::shared_ptr<const PromptBlocks> build(const std::vector<SynthesizedPrompt*>& fresh = {},
                                            int threads = 0);

 private:
  struct Corpus;
  int block_size_;
  const tokenizer::Tokenizer* tok_;
  std::uint64_t seed_;
  std::unique_ptr<Corpus> corpus_;
  std::unordered_map<std::int64_t, int> sizes_;    // id -> tokens
  std::vector<std::int64_t> order_;                // ids in first-use order
  std::unordered_map<std::int64_t, bool> starts_;  // id -> first used at a prompt's start
  long long required_tokens_ = 0;
};

}  // namespace inferperf::dataset
