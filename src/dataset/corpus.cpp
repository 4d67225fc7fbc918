#include "dataset/corpus.hpp"

#include "core/rng.hpp"
#include "dataset/synthetic.hpp"

namespace inferperf::dataset {

namespace {
std::string_view strip(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\f\v";
  const auto b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}
}  // namespace

std::vector<std::string> corpus_chunks(std::string_view text, std::size_t min_chars) {
  std::vector<std::string> chunks;
  std::string current;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = strip(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.empty()) continue;
    if (!current.empty()) current.push_back(' ');
    current.append(line);
    if (current.size() >= min_chars) chunks.push_back(std::move(current)), current.clear();
  }
  if (!current.empty()) chunks.push_back(std::move(current));
  return chunks;
}

TokenCorpus::TokenCorpus(std::string_view text, const tokenizer::Tokenizer& tok) : tok_(tok) {
  for (const std::string& chunk : corpus_chunks(text)) {
    const auto ids = tok.encode(" " + chunk);
    ids_.insert(ids_.end(), ids.begin(), ids.end());
  }
}

std::string TokenCorpus::window_text(std::size_t start, std::size_t n) const {
  if (ids_.empty() || n == 0) return {};
  std::vector<std::int32_t> window;
  window.reserve(n);
  std::size_t at = start % ids_.size();
  while (window.size() < n) {
    const std::size_t take = std::min(n - window.size(), ids_.size() - at);
    window.insert(window.end(), ids_.begin() + static_cast<std::ptrdiff_t>(at),
                  ids_.begin() + static_cast<std::ptrdiff_t>(at + take));
    at = 0;
  }
  return tok_.decode(window);
}

std::string generate_corpus_prompt(int tokens, std::mt19937_64& rng, const TokenCorpus& corpus,
                                   const PieceCounter& count) {
  if (tokens <= 0) return {};
  if (corpus.size() == 0) return extend_to_exact({}, tokens, rng, count);
  const auto target = static_cast<long long>(tokens);
  const std::size_t start = static_cast<std::size_t>(core::uniform_index(rng, corpus.size()));
  // Re-tokenizing a decoded window usually gives the window back; where a boundary merges or
  // splits, the length is corrected by the difference and tried again.
  long long k = target;
  std::string below;  // the longest window seen that is still under the target
  long long below_count = -1;
  for (int attempt = 0; attempt < 6; ++attempt) {
    std::string text(strip(corpus.window_text(start, static_cast<std::size_t>(k))));
    const auto c = static_cast<long long>(count(text));
    if (c == target) return text;
    if (c < target && c > below_count) below = text, below_count = c;
    k = std::max(1LL, k + (target - c));
  }
  return extend_to_exact(std::move(below), tokens, rng, count);
}

}  // namespace inferperf::dataset
