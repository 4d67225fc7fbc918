#include <unordered_map>

#include "tokenizer/bpe_model.hpp"
#include "tokenizer/json_util.hpp"
#include "tokenizer/model.hpp"
#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

namespace {

// BERT-style WordPiece: greedy longest match from the left, continuation pieces prefixed "##".
class WordPieceModel final : public Model {
 public:
  static core::Result<std::unique_ptr<Model>> from_json(simdjson::dom::element c) {
    std::unique_ptr<WordPieceModel> m(new WordPieceModel());
    simdjson::dom::object vocab;
    if (c["vocab"].get_object().get(vocab) != simdjson::SUCCESS) {
      return core::Error{core::ErrorKind::kInput, "WordPiece model without a vocab object", "", 0,
                         "model.vocab"};
    }
    std::int64_t max_id = -1;
    for (auto field : vocab) {
      std::int64_t id = 0;
      if (field.value.get_int64().get(id) != simdjson::SUCCESS || id < 0) {
        return core::Error{core::ErrorKind::kInput,
                           "vocab entry '" + std::string(field.key) + "' has no valid id", "", 0,
                           "model.vocab"};
      }
      m->vocab_.emplace(std::string(field.key), static_cast<std::int32_t>(id));
      max_id = std::max(max_id, id);
    }
    m->id_to_token_.assign(static_cast<std::size_t>(max_id + 1), std::string());
    for (const auto& [t, id] : m->vocab_) m->id_to_token_[static_cast<std::size_t>(id)] = t;
    m->prefix_ = str_field(c, "continuing_subword_prefix", "##");
    m->max_chars_ =
        static_cast<std::size_t>(int_field(c, "max_input_chars_per_word").value_or(100));
    const std::string unk = str_field(c, "unk_token", "[UNK]");
    auto it = m->vocab_.find(unk);
    if (it == m->vocab_.end()) {
      return core::Error{core::ErrorKind::kInput,
                         "WordPiece unk_token '" + unk + "' is not in the vocab", "", 0,
                         "model.unk_token"};
    }
    m->unk_id_ = it->second;
    return std::unique_ptr<Model>(std::move(m));
  }

  void tokenize(std::string_view word, std::vector<std::int32_t>& out) const override {
    std::vector<std::size_t> bounds;  // code point starts, plus the end
    for (std::size_t i = 0; i < word.size(); i += utf8_len(static_cast<unsigned char>(word[i])))
      bounds.push_back(i);
    bounds.push_back(word.size());
    const std::size_t n = bounds.size() - 1;
    if (n > max_chars_) {
      out.push_back(unk_id_);
      return;
    }
    std::vector<std::int32_t> pieces;
    std::size_t start = 0;
    while (start < n) {
      std::size_t end = n;
      std::int32_t found = -1;
      while (end > start) {
        std::string piece(word.substr(bounds[start], bounds[end] - bounds[start]));
        if (start > 0) piece = prefix_ + piece;
        if (auto it = vocab_.find(piece); it != vocab_.end()) {
          found = it->second;
          break;
        }
        --end;
      }
      if (found < 0) {
        out.push_back(unk_id_);
        return;
      }
      pieces.push_back(found);
      start = end;
    }
    out.insert(out.end(), pieces.begin(), pieces.end());
  }

  std::optional<std::int32_t> token_to_id(std::string_view token) const override {
    auto it = vocab_.find(std::string(token));
    if (it == vocab_.end()) return std::nullopt;
    return it->second;
  }
  std::string_view id_to_token(std::int32_t id) const override {
    if (id < 0 || static_cast<std::size_t>(id) >= id_to_token_.size()) return {};
    return id_to_token_[static_cast<std::size_t>(id)];
  }
  std::size_t vocab_size() const override { return vocab_.size(); }

 private:
  std::unordered_map<std::string, std::int32_t> vocab_;
  std::vector<std::string> id_to_token_;
  std::string prefix_;
  std::size_t max_chars_ = 100;
  std::int32_t unk_id_ = 0;
};

}  // namespace

core::Result<std::unique_ptr<Model>> make_model(simdjson::dom::element c) {
  std::string type = str_field(c, "type");
  if (type.empty()) {
    // Older files omit the type; BPE is recognised by its merges.
    if (!c["merges"].is_null() && c["merges"].error() == simdjson::SUCCESS) type = "BPE";
  }
  if (type == "BPE") {
    auto m = BpeModel::from_json(c);
    if (!m) return m.error();
    return std::unique_ptr<Model>(std::move(*m));
  }
  if (type == "WordPiece") return WordPieceModel::from_json(c);
  return core::Error{
      core::ErrorKind::kInput,
      "tokenizer model type '" + type + "' is not supported (supported: BPE, WordPiece)", "", 0,
      "model.type"};
}

}  // namespace inferperf::tokenizer
