#include "tokenizer/text_util.hpp"

#include <utility>

namespace inferperf::tokenizer {

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  if (from.empty()) return s;
  std::string out;
  std::size_t pos = 0, hit;
  while ((hit = s.find(from, pos)) != std::string::npos) {
    out.append(s, pos, hit - pos);
    out += to;
    pos = hit + from.size();
  }
  out.append(s, pos, std::string::npos);
  return out;
}

std::string regex_replace(const Regex& re, const std::string& text, std::string_view content) {
  std::string out;
  std::size_t last = 0;
  for (auto [b, e] : re.find_all(text)) {
    out.append(text, last, b - last);
    out += content;
    last = e;
  }
  out.append(text, last, std::string::npos);
  return out;
}

std::string clean_up_tokenization(std::string text) {
  static const std::pair<std::string_view, std::string_view> kRules[] = {
      {" .", "."},     {" ?", "?"},   {" !", "!"},   {" ,", ","},     {" ' ", "'"},
      {" n't", "n't"}, {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
  for (auto [from, to] : kRules) text = replace_all(std::move(text), from, to);
  return text;
}

}  // namespace inferperf::tokenizer
