// String helpers shared by normalizers, decoders and the tokenizer pipeline.
#pragma once
#include <string>
#include <string_view>

#include "tokenizer/regex.hpp"

namespace inferperf::tokenizer {

std::string replace_all(std::string s, std::string_view from, std::string_view to);
// replace_all with candidates found by memchr on the pattern's first byte that is neither a space
// nor a lowercase letter: the same result, without stopping at every space of a long text.
std::string replace_all_anchored(std::string s, std::string_view from, std::string_view to);
// Every match of `re` in `text` replaced by `content`.
std::string regex_replace(const Regex& re, const std::string& text, std::string_view content);
// transformers' clean_up_tokenization: " ." -> ".", " n't" -> "n't" and the like.
std::string clean_up_tokenization(std::string text);

}  // namespace inferperf::tokenizer
