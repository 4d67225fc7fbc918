#include "tokenizer/text_util.hpp"

#include <cstring>
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

std::string replace_all_anchored(std::string s, std::string_view from, std::string_view to) {
  if (from.empty()) return s;
  std::size_t anchor = from.find_first_not_of(" abcdefghijklmnopqrstuvwxyz");
  if (anchor == std::string_view::npos) anchor = 0;
  const char a = from[anchor];
  std::string out;
  std::size_t pos = 0, search = anchor;  // copied up to pos; next anchor at or after search
  while (search < s.size()) {
    const void* p = std::memchr(s.data() + search, a, s.size() - search);
    if (!p) break;
    const auto hit = static_cast<std::size_t>(static_cast<const char*>(p) - s.data());
    const std::size_t start = hit - anchor;  // never before pos: search >= pos + anchor
    if (s.compare(start, from.size(), from) == 0) {
      out.append(s, pos, start - pos);
      out += to;
      pos = start + from.size();
      search = pos + anchor;
    } else {
      search = hit + 1;
    }
  }
  if (pos == 0) return s;
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
  for (auto [from, to] : kRules) text = replace_all_anchored(std::move(text), from, to);
  return text;
}

}  // namespace inferperf::tokenizer
