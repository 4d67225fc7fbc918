#include "dataset/synthetic.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <string_view>
#include <thread>
#include <vector>

#include "core/uuid.hpp"
#include "dataset/corpus.hpp"
#include "dataset/parallel_jobs.hpp"

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

namespace {
constexpr std::string_view kLeadWord = "the";
}

PieceCounter::PieceCounter(const tokenizer::Tokenizer& tok, bool follows_text)
    : tok_(tok), follows_(follows_text), lead_tokens_(follows_text ? tok.count(kLeadWord) : 0) {}

std::size_t PieceCounter::operator()(std::string_view piece) const {
  if (!follows_) return tok_.count(piece);
  std::string text;
  text.reserve(kLeadWord.size() + 1 + piece.size());
  text.append(kLeadWord).append(" ").append(piece);
  const std::size_t n = tok_.count(text);
  return n > lead_tokens_ ? n - lead_tokens_ : 0;
}

std::string generate_exact_prompt(int tokens, std::mt19937_64& rng,
                                  const tokenizer::Tokenizer& tok) {
  return extend_to_exact({}, tokens, rng, PieceCounter(tok, false));
}

std::string extend_to_exact(std::string base, int tokens, std::mt19937_64& rng,
                            const PieceCounter& count_of) {
  const auto target = static_cast<std::size_t>(std::max(tokens, 0));
  std::size_t count = base.empty() ? 0 : count_of(base);
  if (count == target) return base;
  if (count > target) base.clear(), count = 0;
  auto draw = [&] {
    return kWords[static_cast<std::size_t>(core::uniform_index(rng, kWords.size()))];
  };
  std::vector<std::string_view> words;
  auto text_of = [&](std::size_t k) {
    std::string out = base;
    for (std::size_t i = 0; i < k; ++i) {
      if (!out.empty()) out.push_back(' ');
      out.append(words[i]);
    }
    return out;
  };
  // Most vocabularies spell every listed word as one token, so the first count is usually exact.
  for (std::size_t i = count; i < target; ++i) words.push_back(draw());
  std::size_t k = words.size();
  count = count_of(text_of(k));
  if (count == target) return text_of(k);
  // Otherwise: enough words to reach the target, then the longest word prefix not above it.
  while (count < target) {
    for (std::size_t i = 0; i < target - count + 1; ++i) words.push_back(draw());
    k = words.size();
    count = count_of(text_of(k));
  }
  std::size_t lo = 0, hi = k;  // count(lo) <= target < count(hi), unless hi is exact
  if (count == target) return text_of(k);
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (count_of(text_of(mid)) <= target)
      lo = mid;
    else
      hi = mid;
  }
  k = lo;
  // Close the remaining gap with one or two more words; if none fits, give back the last word and
  // try again with a larger gap.
  for (int round = 0; round < 4; ++round) {
    std::string head = text_of(k);
    count = count_of(head);
    if (count == target) return head;
    const std::string sep = head.empty() ? "" : " ";
    const std::size_t offset = static_cast<std::size_t>(core::uniform_index(rng, kWords.size()));
    for (std::size_t i = 0; i < kWords.size(); ++i) {
      const std::string one = head + sep + std::string(kWords[(offset + i) % kWords.size()]);
      const std::size_t c1 = count_of(one);
      if (c1 == target) return one;
      if (c1 > target) continue;
      for (std::size_t j = 0; j < 16; ++j) {
        const std::string two = one + " " + std::string(draw());
        if (count_of(two) == target) return two;
      }
    }
    if (k == 0) break;
    --k;
  }
  // No exact spelling found from this vocabulary: the longest prefix below the target.
  return text_of(lo);
}

namespace {

// Where a generated prompt goes. Prompts are planned first (every random draw in a fixed order on
// one thread) and generated afterwards on several threads, each from its own planned seed, so the
// dataset does not depend on the thread count.
enum class Slot { kSystem, kPrefix, kUserContext, kText, kMoreText, kPassage };
struct PromptJob {
  int tokens;
  std::uint64_t seed;
  Slot slot;
  bool follows;  // not the first text of the request (PieceCounter)
  std::size_t conversation = 0, turn = 0, index = 0;
};

std::string& slot_text(Dataset& ds, std::vector<std::string>& prefixes, const PromptJob& j) {
  switch (j.slot) {
    case Slot::kSystem:
      return ds.system_message;
    case Slot::kPrefix:
      return prefixes[j.index];
    case Slot::kUserContext:
      return ds.conversations[j.conversation].user_context;
    case Slot::kText:
      return ds.conversations[j.conversation].turns[j.turn].text;
    case Slot::kMoreText:
      return ds.conversations[j.conversation].turns[j.turn].more_texts[j.index];
    case Slot::kPassage:
      break;
  }
  return ds.conversations[j.conversation].turns[j.turn].passages[j.index];
}

void generate_all(const std::vector<PromptJob>& jobs, std::vector<std::string*> out, int threads,
                  const tokenizer::Tokenizer* tok, const TokenCorpus* corpus) {
  std::optional<PieceCounter> first, follows;
  if (tok) first.emplace(*tok, false), follows.emplace(*tok, true);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < jobs.size();) {
      const PromptJob& j = jobs[i];
      std::mt19937_64 rng(j.seed);
      *out[i] = tok ? generate_corpus_prompt(j.tokens, rng, *corpus, j.follows ? *follows : *first)
                    : generate_prompt(j.tokens, rng);
    }
  };
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(threads), jobs.size() / 4 + 1));
  run_on_threads(threads, work);
}

}  // namespace

Dataset compose_synthetic(const SyntheticOptions& options, const core::RngFactory& rngs,
                          const tokenizer::Tokenizer* tok) {
  auto length_rng = rngs.stream("dataset.prompt.length");
  auto corpus_rng = rngs.stream("dataset.prompt.corpus");
  auto osl_rng = rngs.stream("composer.turn.max_tokens");
  auto id_rng = rngs.stream("dataset.session_id");
  auto prefix_rng = rngs.stream("dataset.prompt.prefix");
  auto seq_rng = rngs.stream("dataset.sequence.distribution");
  auto context_rng = rngs.stream("dataset.prompt.user_context");
  auto turn_count_rng = rngs.stream("composer.conversation.turn_count");
  auto delay_rng = rngs.stream("composer.conversation.turn_delay");
  auto passages_rng = rngs.stream("dataset.rankings.passages");

  Dataset ds;
  std::vector<PromptJob> jobs;
  if (options.shared_system_length > 0) {
    auto system_rng = rngs.stream("dataset.prompt.system");
    jobs.push_back({options.shared_system_length, system_rng(), Slot::kSystem, false});
  }
  // A request's text is system, user context, prefix and turns joined by spaces: every piece but
  // the request's first is generated to be exact after a space.
  const bool has_system = options.shared_system_length > 0;
  const bool has_context = options.user_context_length > 0;
  std::vector<std::string> prefixes;
  if (options.prefix_length > 0 && options.prefix_pool_size > 0) {
    prefixes.resize(static_cast<std::size_t>(options.prefix_pool_size));
    for (std::size_t i = 0; i < prefixes.size(); ++i) {
      jobs.push_back(
          {options.prefix_length, prefix_rng(), Slot::kPrefix, has_system || has_context, 0, 0, i});
    }
  }
  const bool first_follows = has_system || has_context || !prefixes.empty();
  std::vector<std::size_t>
      prefix_of;  // per conversation: the pool entry its first turn starts with
  ds.conversations.resize(static_cast<std::size_t>(std::max(options.num_conversations, 0)));
  for (std::size_t i = 0; i < ds.conversations.size(); ++i) {
    Conversation& conv = ds.conversations[i];
    conv.session_id = core::uuid4(id_rng);
    if (has_context) {
      jobs.push_back(
          {options.user_context_length, context_rng(), Slot::kUserContext, has_system, i});
    }
    const int turns =
        core::sample_positive_normal_int(turn_count_rng, options.turn_mean, options.turn_stddev);
    conv.turns.resize(static_cast<std::size_t>(turns));
    for (std::size_t k = 0; k < conv.turns.size(); ++k) {
      Turn& turn = conv.turns[k];
      if (options.rankings) {
        const auto& r = *options.rankings;
        turn.synthetic_tokens = core::sample_positive_normal_int(length_rng, r.query_tokens_mean,
                                                                 r.query_tokens_stddev);
        jobs.push_back(
            {turn.synthetic_tokens, corpus_rng(), Slot::kText, k > 0 || first_follows, i, k});
        turn.passages.resize(static_cast<std::size_t>(
            core::sample_positive_normal_int(passages_rng, r.passages_mean, r.passages_stddev)));
        for (std::size_t p = 0; p < turn.passages.size(); ++p) {
          jobs.push_back({core::sample_positive_normal_int(length_rng, r.passage_tokens_mean,
                                                           r.passage_tokens_stddev),
                          corpus_rng(), Slot::kPassage, true, i, k, p});
        }
      } else {
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
        jobs.push_back(
            {turn.synthetic_tokens, corpus_rng(), Slot::kText, k > 0 || first_follows, i, k});
        turn.more_texts.resize(
            static_cast<std::size_t>(std::max(options.prompt_batch_size - 1, 0)));
        for (std::size_t b = 0; b < turn.more_texts.size(); ++b) {
          jobs.push_back({core::sample_positive_normal_int(length_rng, isl_mean, isl_sd),
                          corpus_rng(), Slot::kMoreText, true, i, k, b});
        }
        if (osl_mean)
          turn.max_tokens = core::sample_positive_normal_int(osl_rng, *osl_mean, osl_sd);
      }
      if (k > 0 && options.turn_delay_mean > 0) {
        turn.delay_ms = core::sample_positive_normal_int(delay_rng, options.turn_delay_mean,
                                                         options.turn_delay_stddev) *
                        options.turn_delay_ratio;
      }
    }
    if (!prefixes.empty()) {
      prefix_of.push_back(
          static_cast<std::size_t>(core::uniform_index(prefix_rng, prefixes.size())));
    }
  }

  std::optional<TokenCorpus> corpus;
  if (tok) corpus.emplace(options.corpus_text, *tok);
  std::vector<std::string*> targets;
  targets.reserve(jobs.size());
  for (const auto& j : jobs) targets.push_back(&slot_text(ds, prefixes, j));
  generate_all(jobs, std::move(targets), options.threads, tok, corpus ? &*corpus : nullptr);

  // First turns get a prefix from the pool, joined with one space as AIPerf does.
  for (std::size_t i = 0; i < prefix_of.size(); ++i) {
    Turn& first = ds.conversations[i].turns.front();
    first.text = prefixes[prefix_of[i]] + " " + first.text;
  }
  return ds;
}

}  // namespace inferperf::dataset
