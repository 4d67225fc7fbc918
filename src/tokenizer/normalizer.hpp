// Hugging Face normalizers: NFC/NFD/NFKC/NFKD (utf8proc), Lowercase, Prepend, Replace, Strip,
// StripAccents, BertNormalizer and Sequence, built from tokenizer.json's "normalizer" object.
#pragma once
#include <simdjson.h>

#include <memory>
#include <string>

#include "core/error.hpp"

namespace inferperf::tokenizer {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  virtual std::string normalize(std::string text) const = 0;
};

// Null JSON gives a null pointer (no normalization).
core::Result<std::unique_ptr<Normalizer>> make_normalizer(simdjson::dom::element config);

// Unicode normalization form by name ("NFC", "NFD", "NFKC", "NFKD").
std::string unicode_normalize(const std::string& text, const std::string& form);

}  // namespace inferperf::tokenizer
