// String helpers shared by normalizers, decoders and the tokenizer pipeline.
#pragma once
#include <string>
#include <string_view>

#include "tokenizer/regex.hpp"

namespace inferperf::tokenizer {

std::string replace_all(std::string s, std::string_view from, std::string_view to);
// Every match of `re` in `text` replaced by `content`.
std::string regex_replace(const Regex& re, const std::string& text, std::string_view content);
// transformers' clean_up_tokenization: " ." -> ".", " n't" -> "n't" and the like.
std::string clean_up_tokenization(std::string text);

}  // namespace inferperf::tokenizer
