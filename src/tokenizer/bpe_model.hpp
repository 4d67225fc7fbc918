// Byte-pair encoding as Hugging Face defines it: merges applied by rank (leftmost first among
// equal ranks), optional byte fallback, unknown-token fusing, ignore_merges and a word cache.
#pragma once
#include <array>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "tokenizer/flat_string_index.hpp"
#include "tokenizer/merge_table.hpp"
#include "tokenizer/model.hpp"
#include "tokenizer/word_cache.hpp"

namespace inferperf::tokenizer {

// Hash and equality that let string-keyed maps be searched with a string_view, without allocating.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};
// Words longer than this are merged in slices of at most this many bytes (cut at code point
// boundaries), which bounds merging's time and memory per word.
inline constexpr std::size_t kMaxMergeWordBytes = 4096;

template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

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
  // Same result as tokenize(bytes_to_byte_level(raw)) without building the mapped string: each raw
  // byte starts as the symbol of its byte-level stand-in.
  void tokenize_byte_level(std::string_view raw, std::vector<std::int32_t>& out) const;
  std::optional<std::int32_t> token_to_id(std::string_view token) const override;
  std::string_view id_to_token(std::int32_t id) const override;
  std::size_t vocab_size() const override { return vocab_count_; }

 private:
  // Symbols are every string merging can produce. A vocab token's symbol id is its token id;
  // merge results missing from the vocab get ids above the vocab ("phantoms", never emitted as
  // such).
  std::int32_t symbol_id(std::string_view s);  // creates a phantom when missing (load time only)
  std::int32_t find_symbol(std::string_view s) const;
  bool in_vocab(std::int32_t sym) const {
    return sym >= 0 && sym < vocab_limit_ && !id_to_token_[static_cast<std::size_t>(sym)].empty();
  }
  void merge_word(std::string_view word, bool raw_bytes, std::vector<std::int32_t>& out) const;
  void cached(std::string_view word, bool raw_bytes, std::vector<std::int32_t>& out) const;
  void emit_symbol(std::int32_t sym, std::string_view text, std::vector<std::int32_t>& out) const;

  BpeOptions options_;
  FlatStringIndex symbols_;                    // token or phantom text -> symbol id
  std::vector<std::string_view> id_to_token_;  // id -> token (views into symbols_; "" for holes)
  std::int32_t vocab_limit_ = 0;               // one past the highest vocab id
  std::size_t vocab_count_ = 0;
  std::int32_t next_phantom_ = 0;
  std::int32_t vocab_id(std::string_view token) const {
    const std::int32_t id = symbols_.find(token);
    return id >= 0 && id < vocab_limit_ ? id : -1;
  }
  std::unordered_map<char32_t, std::int32_t> char_symbols_;  // single code point -> symbol
  MergeTable merges_;
  std::array<std::int32_t, 256> byte_fallback_ids_{};
  std::array<std::int32_t, 256> byte_symbols_{};  // raw byte -> symbol of its byte-level char
  std::optional<std::int32_t> unk_id_;

  // Word cache: word -> ids, one per input kind (mapped text, raw bytes for the byte-level path).
  // Word -> ids, one cache per input kind (mapped text, raw bytes for the byte-level path).
  mutable WordCache cache_;
  mutable WordCache raw_cache_;
};

}  // namespace inferperf::tokenizer
