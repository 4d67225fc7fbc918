#include "tokenizer/bounded_count.hpp"

#include <algorithm>
#include <cmath>

#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

BoundedCount count_bounded(const Tokenizer& tok, std::string_view text, std::size_t max_exact,
                           std::size_t sample) {
  if (text.size() <= max_exact) return {static_cast<std::int64_t>(tok.count(text)), false};
  const std::size_t cut = std::max<std::size_t>(utf8_prefix(text, std::min(sample, max_exact)), 1);
  const auto sampled = static_cast<double>(tok.count(text.substr(0, cut)));
  const double scaled = sampled * static_cast<double>(text.size()) / static_cast<double>(cut);
  return {std::max<std::int64_t>(std::llround(scaled), 1), true};
}

}  // namespace inferperf::tokenizer
