// PCRE2 (JIT) regular expressions over UTF-8 with Unicode properties, for pre-tokenizer patterns.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace inferperf::tokenizer {

class Regex {
 public:
  // Compiles `pattern` with UTF and UCP semantics; JIT-compiled when the platform supports it.
  static core::Result<std::shared_ptr<Regex>> compile(std::string_view pattern);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  // Every non-overlapping match, left to right, as [begin, end) byte offsets. `text` must be valid
  // UTF-8.
  std::vector<std::pair<std::size_t, std::size_t>> find_all(std::string_view text) const;

 private:
  Regex() = default;
  void* code_ = nullptr;  // pcre2_code_8*
  bool jit_ = false;
};

// Escapes a literal string for use inside a pattern.
std::string regex_escape(std::string_view literal);

}  // namespace inferperf::tokenizer
