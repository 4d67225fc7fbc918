#include "dataset/synthetic.hpp"

#include <array>
#include <vector>
#include <string_view>

#include "core/uuid.hpp"

namespace inferperf::dataset {

namespace {
// Short, common English words; every entry is at most four characters.
constexpr std::array<std::string_view, 132> kWords = {
    "the",  "of",   "and",  "to",   "in",   "is",   "you",  "that", "it",   "he",   "was",  "for",
    "on",   "are",  "as",   "with", "his",  "they", "at",   "be",   "this", "have", "from", "or",
    "one",  "had",  "by",   "word", "but",  "not",  "what", "all",  "were", "we",   "when", "your",
    "can",  "said", "set",  "use",  "an",   "each", "she",  "last", "do",   "how",  "if",   "will",
    "up",   "out",  "many", "then", "them", "so",   "some", "her",  "make", "like", "him",  "into",
    "time", "has",  "look", "two",  "more", "go",   "see",  "no",   "way",  "run", "my",   "than",
    "been", "call", "who",  "its",  "now",  "find", "long", "down", "day",  "did",  "get",  "come",
    "made", "may",  "part", "over", "new",  "ask",  "take", "only", "work", "know", "year", "live",
    "me",   "back", "give", "most", "very", "good", "man",  "our",  "just", "name", "help", "line",
    "turn", "much", "mean", "old",  "any",  "same", "tell", "boy",  "want", "air",  "well", "also",
    "play", "home", "read", "hand", "port", "big",  "even", "land", "here", "must", "high", "such"};
}  // namespace

std::string generate_prompt(int tokens, std::mt19937_64& rng) {
  std::string out;
  out.reserve(static_cast<std::size_t>(tokens) * 5);
  for (int i = 0; i < tokens; ++i) {
    if (i > 0) out.push_back(' ');
    std::string_view w = kWords[static_cast<std::size_t>(core::uniform_index(rng, kWords.size()))];
    out.append(w);
  }
  return out;
}

std::string generate_exact_prompt(int tokens, std::mt19937_64& rng, const tokenizer::Tokenizer& tok) {
  std::vector<std::string_view> words;
  for (int i = 0; i < tokens; ++i) words.push_back(kWords[static_cast<std::size_t>(core::uniform_index(rng, kWords.size()))]);
  auto join = [&] {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (i > 0) out.push_back(' ');
      out.append(words[i]);
    }
    return out;
  };
  // Most vocabulary words are one token; fix the few that are not by trimming, extending or
  // swapping the last word until the count is exact.
  std::string text = join();
  for (int round = 0; round < 4 * tokens + 16; ++round) {
    const auto n = static_cast<int>(tok.count(text));
    if (n == tokens) return text;
    if (n > tokens && words.size() > 1) {
      words.pop_back();
    } else if (n < tokens) {
      words.push_back(kWords[static_cast<std::size_t>(core::uniform_index(rng, kWords.size()))]);
    } else {
      words.back() = kWords[static_cast<std::size_t>(core::uniform_index(rng, kWords.size()))];
    }
    text = join();
  }
  return text;  // closest found
}

Dataset compose_synthetic(const SyntheticOptions& options, const core::RngFactory& rngs,
                          const tokenizer::Tokenizer* tok) {
  auto length_rng = rngs.stream("dataset.prompt.length");
  auto corpus_rng = rngs.stream("dataset.prompt.corpus");
  auto osl_rng = rngs.stream("composer.turn.max_tokens");
  auto id_rng = rngs.stream("dataset.session_id");
  Dataset ds;
  ds.conversations.reserve(static_cast<std::size_t>(options.num_conversations));
  for (int i = 0; i < options.num_conversations; ++i) {
    Conversation conv;
    conv.session_id = core::uuid4(id_rng);
    Turn turn;
    turn.synthetic_tokens =
        core::sample_positive_normal_int(length_rng, options.isl_mean, options.isl_stddev);
    turn.text = tok ? generate_exact_prompt(turn.synthetic_tokens, corpus_rng, *tok)
                    : generate_prompt(turn.synthetic_tokens, corpus_rng);
    if (options.osl_mean) {
      turn.max_tokens =
          core::sample_positive_normal_int(osl_rng, *options.osl_mean, options.osl_stddev);
    }
    conv.turns.push_back(std::move(turn));
    ds.conversations.push_back(std::move(conv));
  }
  return ds;
}

}  // namespace inferperf::dataset
