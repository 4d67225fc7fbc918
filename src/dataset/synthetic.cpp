#include "dataset/synthetic.hpp"

#include <array>
#include <string_view>
#include <vector>

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
    "time", "has",  "look", "two",  "more", "go",   "see",  "no",   "way",  "run",  "my",   "than",
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

std::string generate_exact_prompt(int tokens, std::mt19937_64& rng,
                                  const tokenizer::Tokenizer& tok) {
  const auto target = static_cast<std::size_t>(tokens);
  auto draw = [&] {
    return kWords[static_cast<std::size_t>(core::uniform_index(rng, kWords.size()))];
  };
  std::vector<std::string_view> words;
  auto text_of = [&](std::size_t k) {
    std::string out;
    for (std::size_t i = 0; i < k; ++i) {
      if (i > 0) out.push_back(' ');
      out.append(words[i]);
    }
    return out;
  };
  // Most vocabularies spell every listed word as one token, so the first count is usually exact.
  for (std::size_t i = 0; i < target; ++i) words.push_back(draw());
  std::size_t k = words.size();
  std::size_t count = tok.count(text_of(k));
  if (count == target) return text_of(k);
  // Otherwise: enough words to reach the target, then the longest word prefix not above it.
  while (count < target) {
    for (std::size_t i = 0; i < target - count + 1; ++i) words.push_back(draw());
    k = words.size();
    count = tok.count(text_of(k));
  }
  std::size_t lo = 0, hi = k;  // count(lo) <= target < count(hi), unless hi is exact
  if (count == target) return text_of(k);
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (tok.count(text_of(mid)) <= target)
      lo = mid;
    else
      hi = mid;
  }
  k = lo;
  // Close the remaining gap with one or two more words; if none fits, give back the last word and
  // try again with a larger gap.
  for (int round = 0; round < 4; ++round) {
    std::string base = text_of(k);
    count = tok.count(base);
    if (count == target) return base;
    const std::string sep = base.empty() ? "" : " ";
    const std::size_t offset = static_cast<std::size_t>(core::uniform_index(rng, kWords.size()));
    for (std::size_t i = 0; i < kWords.size(); ++i) {
      const std::string one = base + sep + std::string(kWords[(offset + i) % kWords.size()]);
      const std::size_t c1 = tok.count(one);
      if (c1 == target) return one;
      if (c1 > target) continue;
      for (std::size_t j = 0; j < 16; ++j) {
        const std::string two = one + " " + std::string(draw());
        if (tok.count(two) == target) return two;
      }
    }
    if (k == 0) break;
    --k;
  }
  return text_of(
      lo);  // no exact spelling found from this vocabulary: the longest prefix below target
}

Dataset compose_synthetic(const SyntheticOptions& options, const core::RngFactory& rngs,
                          const tokenizer::Tokenizer* tok) {
  auto length_rng = rngs.stream("dataset.prompt.length");
  auto corpus_rng = rngs.stream("dataset.prompt.corpus");
  auto osl_rng = rngs.stream("composer.turn.max_tokens");
  auto id_rng = rngs.stream("dataset.session_id");
  auto prefix_rng = rngs.stream("dataset.prompt.prefix");
  auto seq_rng = rngs.stream("dataset.sequence.distribution");
  auto context_rng = rngs.stream("dataset.prompt.user_context");
  auto prompt = [&](int n, std::mt19937_64& rng) {
    return tok ? generate_exact_prompt(n, rng, *tok) : generate_prompt(n, rng);
  };
  Dataset ds;
  if (options.shared_system_length > 0) {
    auto system_rng = rngs.stream("dataset.prompt.system");
    ds.system_message = prompt(options.shared_system_length, system_rng);
  }
  std::vector<std::string> prefixes;
  for (int i = 0; i < options.prefix_pool_size && options.prefix_length > 0; ++i) {
    prefixes.push_back(prompt(options.prefix_length, prefix_rng));
  }
  ds.conversations.reserve(static_cast<std::size_t>(options.num_conversations));
  for (int i = 0; i < options.num_conversations; ++i) {
    Conversation conv;
    conv.session_id = core::uuid4(id_rng);
    if (options.user_context_length > 0)
      conv.user_context = prompt(options.user_context_length, context_rng);
    Turn turn;
    double isl_mean = options.isl_mean, isl_sd = options.isl_stddev;
    std::optional<double> osl_mean;
    double osl_sd = options.osl_stddev;
    if (options.osl_mean) osl_mean = *options.osl_mean;
    if (options.sequence_distribution) {
      const auto& pair = options.sequence_distribution->pick(seq_rng);
      isl_mean = pair.isl;
      isl_sd = pair.isl_stddev;
      osl_mean = pair.osl;
      osl_sd = pair.osl_stddev;
    }
    turn.synthetic_tokens = core::sample_positive_normal_int(length_rng, isl_mean, isl_sd);
    turn.text = prompt(turn.synthetic_tokens, corpus_rng);
    for (int b = 1; b < options.prompt_batch_size; ++b) {
      turn.more_texts.push_back(
          prompt(core::sample_positive_normal_int(length_rng, isl_mean, isl_sd), corpus_rng));
    }
    if (!prefixes.empty()) {
      // First turns get a prefix from the pool, joined with one space as AIPerf does.
      turn.text =
          prefixes[static_cast<std::size_t>(core::uniform_index(prefix_rng, prefixes.size()))] +
          " " + turn.text;
    }
    if (osl_mean) turn.max_tokens = core::sample_positive_normal_int(osl_rng, *osl_mean, osl_sd);
    conv.turns.push_back(std::move(turn));
    ds.conversations.push_back(std::move(conv));
  }
  return ds;
}

}  // namespace inferperf::dataset
