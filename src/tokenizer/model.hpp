// Tokenization models (BPE, WordPiece): one pre-tokenized word in, token ids out.
#pragma once
#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace inferperf::tokenizer {

class Model {
 public:
  virtual ~Model() = default;
  virtual void tokenize(std::string_view word, std::vector<std::int32_t>& out) const = 0;
  virtual std::optional<std::int32_t> token_to_id(std::string_view token) const = 0;
  // Empty view for ids the model does not know.
  virtual std::string_view id_to_token(std::int32_t id) const = 0;
  virtual std::size_t vocab_size() const = 0;
};

// Builds the model from tokenizer.json's "model" object. Unigram and other types give an error
// naming the type.
core::Result<std::unique_ptr<Model>> make_model(simdjson::dom::element config);

}  // namespace inferperf::tokenizer
