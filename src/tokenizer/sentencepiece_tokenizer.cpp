#include "tokenizer/sentencepiece_tokenizer.hpp"

#include <sentencepiece_processor.h>

#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

SentencePieceTokenizer::~SentencePieceTokenizer() = default;

core::Result<std::unique_ptr<SentencePieceTokenizer>> SentencePieceTokenizer::load(
    const std::filesystem::path& path) {
  std::unique_ptr<SentencePieceTokenizer> t(new SentencePieceTokenizer());
  t->sp_ = std::make_unique<sentencepiece::SentencePieceProcessor>();
  const auto status = t->sp_->Load(path.string());
  if (!status.ok()) {
    return core::Error{core::ErrorKind::kInput, "not a SentencePiece model: " + status.ToString(),
                       path.string()};
  }
  return t;
}

std::vector<std::int32_t> SentencePieceTokenizer::encode(std::string_view text) const {
  std::vector<int> ids;
  sp_->Encode(sanitize_utf8(text), &ids).IgnoreError();
  return {ids.begin(), ids.end()};
}

std::string SentencePieceTokenizer::decode(std::span<const std::int32_t> ids) const {
  std::vector<int> v(ids.begin(), ids.end());
  std::string out;
  sp_->Decode(v, &out).IgnoreError();
  return out;
}

std::size_t SentencePieceTokenizer::vocab_size() const {
  return static_cast<std::size_t>(sp_->GetPieceSize());
}

}  // namespace inferperf::tokenizer
