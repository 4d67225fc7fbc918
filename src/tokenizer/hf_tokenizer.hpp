// A Hugging Face tokenizer.json pipeline: added-token splitting, normalizer, pre-tokenizer, model
// and decoder; tokenizer_config.json beside it supplies clean_up_tokenization_spaces.
#pragma once
#include <array>
#include <filesystem>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "tokenizer/decoder.hpp"
#include "tokenizer/model.hpp"
#include "tokenizer/normalizer.hpp"
#include "tokenizer/pre_tokenizer.hpp"
#include "tokenizer/regex.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::tokenizer {

struct AddedToken {
  std::int32_t id = 0;
  std::string content;
  bool lstrip = false;
  bool rstrip = false;
  bool special = false;
};

class HfTokenizer final : public Tokenizer {
 public:
  // Loads `path` (a tokenizer.json file); errors name the file and the offending field.
  static core::Result<std::unique_ptr<HfTokenizer>> load(const std::filesystem::path& path);
  static core::Result<std::unique_ptr<HfTokenizer>> from_json_text(std::string_view json,
                                                                   bool clean_up_spaces,
                                                                   const std::string& origin);

  std::vector<std::int32_t> encode(std::string_view text) const override;
  std::string decode(std::span<const std::int32_t> ids) const override;
  std::size_t vocab_size() const override;

 private:
  struct TrieNode {
    std::unordered_map<unsigned char, std::int32_t> next;
    std::int32_t token = -1;  // index into added_ when a token ends here
  };
  struct Segment {
    std::size_t begin, end;  // byte range of the text (for plain text)
    std::int32_t added;      // index into added_, or -1 for plain text
  };
  // Splits on added tokens, longest match at each position scanning left to right.
  std::vector<Segment> split_added(std::string_view text) const;
  void encode_segment(std::string_view text, bool first_section,
                      std::vector<std::int32_t>& out) const;
  void encode_pieces(std::string_view text, bool first_section,
                     std::vector<std::int32_t>& out) const;
  void detect_fast_path(simdjson::dom::element pre_tokenizer);

  std::unique_ptr<Normalizer> normalizer_;
  std::unique_ptr<PreTokenizer> pre_tokenizer_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Decoder> decoder_;
  std::vector<AddedToken> added_;
  std::unordered_map<std::int32_t, std::size_t> added_by_id_;
  std::unordered_set<std::string> added_contents_;
  std::vector<TrieNode> trie_;
  std::array<bool, 256> first_byte_{};  // bytes an added token can start with
  bool clean_up_spaces_ = false;
  // decode() fast path for a lone ByteLevel decoder; ids whose text is an added token's content
  // (the added ids and vocabulary ids spelling the same text) pass through it unmapped.
  bool byte_level_decoder_ = false;
  std::unordered_set<std::int32_t> added_like_ids_;
  // Each vocabulary id's decoded bytes, built on the first byte-level decode.
  mutable std::once_flag byte_table_once_;
  mutable std::string token_bytes_;
  mutable std::vector<std::uint32_t> byte_offsets_;
  // Byte-level BPE whose pre-tokenizer is one regex split followed by the byte mapping (GPT-2,
  // Llama 3, Qwen, o200k): pieces are tokenized straight from the text without copies.
  std::shared_ptr<Regex> fast_split_;
  bool fast_keep_gaps_ = false;
  const class BpeModel* fast_bpe_ = nullptr;
};

}  // namespace inferperf::tokenizer
