// SentencePiece .model files through Debian's libsentencepiece.
#pragma once
#include <filesystem>
#include <memory>

#include "core/error.hpp"
#include "tokenizer/tokenizer.hpp"

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace inferperf::tokenizer {

class SentencePieceTokenizer final : public Tokenizer {
 public:
  static core::Result<std::unique_ptr<SentencePieceTokenizer>> load(
      const std::filesystem::path& path);
  ~SentencePieceTokenizer() override;

  std::vector<std::int32_t> encode(std::string_view text) const override;
  std::string decode(std::span<const std::int32_t> ids) const override;
  std::size_t vocab_size() const override;

 private:
  SentencePieceTokenizer() = default;
  std::unique_ptr<sentencepiece::SentencePieceProcessor> sp_;
};

}  // namespace inferperf::tokenizer
