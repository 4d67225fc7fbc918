// Hugging Face pre-tokenizers: Split (PCRE2), ByteLevel, Metaspace, Digits, Punctuation,
// Whitespace, WhitespaceSplit, BertPreTokenizer and Sequence. Each turns a list of pieces into a
// finer list of pieces.
#pragma once
#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace inferperf::tokenizer {

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // `first_section` is true for the text before the first added token (Metaspace "first" scheme).
  virtual void pre_tokenize(std::vector<std::string>& pieces, bool first_section) const = 0;
};

core::Result<std::unique_ptr<PreTokenizer>> make_pre_tokenizer(simdjson::dom::element config);

}  // namespace inferperf::tokenizer
