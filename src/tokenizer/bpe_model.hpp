// Byte-pair encoding as Hugging Face defines it: merges applied by rank (leftmost first among
// equal ranks), optional byte fallback, unknown-token fusing, ignore_merges and a word cache.
#pragma once
#include <mutex>
#include <unordered_map>

#include "tokenizer/model.hpp"

namespace inferperf::tokenizer {

struct BpeOptions {
  std::optional<std::string> unk_token;
  std::string continuing_subword_prefix;
  std::string end_of_word_suffix;
  bool byte_fallback = false;
  bool fuse_unk = false;
  bool ignore_merges = false;
};

class BpeModel final : public Model {
 public:
  static core::Result<std::unique_ptr<BpeModel>> from_json(simdjson::dom::element config);

  void tokenize(std::string_view word, std::vector<std::int32_t>& out) const override;
  std::optional<std::int32_t> token_to_id(std::string_view token) const override;
  std::string_view id_to_token(std::int32_t id) const override;
  std::size_t vocab_size() const override { return vocab_.size(); }

 private:
  struct Merge {
    std::uint32_t rank;
    std::int32_t merged;  // symbol id
  };

  std::int32_t symbol_id(const std::string& s);  // creates one when missing (load time only)
  void merge_word(std::string_view word, std::vector<std::int32_t>& out) const;
  void emit_symbol(std::int32_t sym, std::string_view text, std::vector<std::int32_t>& out) const;

  BpeOptions options_;
  std::unordered_map<std::string, std::int32_t> vocab_;  // token -> id
  std::vector<std::string> id_to_token_;                 // id -> token ("" for holes)
  // Symbols are every string merging can produce: vocab tokens plus merge results missing from the
  // vocab. A symbol maps to its vocab id or -1.
  std::unordered_map<std::string, std::int32_t> symbols_;
  std::vector<std::string> symbol_text_;
  std::vector<std::int32_t> symbol_vocab_;
  std::unordered_map<std::uint64_t, Merge> merges_;
  std::array<std::int32_t, 256> byte_fallback_ids_{};
  std::optional<std::int32_t> unk_id_;

  mutable std::mutex cache_mu_;
  mutable std::unordered_map<std::string, std::vector<std::int32_t>> cache_;
};

}  // namespace inferperf::tokenizer
