// Synthetic prompts: exact token counts for the real tokenizers, and reproducible datasets.
#include "dataset/synthetic.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = INFERPERF_SOURCE_DIR;

void load(const std::string& name, std::unique_ptr<tokenizer::HfTokenizer>& out) {
  const auto path = kSource / ".cache/tokenizers" / name / "tokenizer.json";
  ASSERT_TRUE(fs::exists(path)) << path << " is missing: run scripts/fetch-tokenizers.sh";
  auto tok = tokenizer::HfTokenizer::load(path);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  out = std::move(*tok);
}

std::size_t word_count(const std::string& s) {
  std::istringstream in(s);
  std::size_t n = 0;
  for (std::string w; in >> w;) ++n;
  return n;
}

class ExactPrompt : public ::testing::TestWithParam<std::string> {};

TEST_P(ExactPrompt, TokenCountEqualsTargetExactly) {
  std::unique_ptr<tokenizer::HfTokenizer> tok;
  ASSERT_NO_FATAL_FAILURE(load(GetParam(), tok));
  for (int target : {1, 2, 7, 64, 512, 2048}) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      std::mt19937_64 rng(seed);
      const std::string text = generate_exact_prompt(target, rng, *tok);
      EXPECT_FALSE(text.empty());
      EXPECT_EQ(tok->count(text), static_cast<std::size_t>(target))
          << GetParam() << " target " << target << " seed " << seed << ": " << text.substr(0, 200);
    }
  }
}

TEST_P(ExactPrompt, SameRngStateGivesTheSameText) {
  std::unique_ptr<tokenizer::HfTokenizer> tok;
  ASSERT_NO_FATAL_FAILURE(load(GetParam(), tok));
  std::mt19937_64 a(7), b(7), c(8);
  const std::string ta = generate_exact_prompt(64, a, *tok);
  EXPECT_EQ(ta, generate_exact_prompt(64, b, *tok));
  EXPECT_NE(ta, generate_exact_prompt(64, c, *tok));
}

INSTANTIATE_TEST_SUITE_P(Tokenizers, ExactPrompt,
                         ::testing::Values("qwen3", "llama3", "gpt4o", "llama2"));

// A character-level WordPiece tokenizer: every vocabulary word is 2 to 4 tokens.
std::unique_ptr<tokenizer::HfTokenizer> character_tokenizer() {
  std::string vocab = "\"[UNK]\": 0";
  int id = 1;
  for (char c = 'a'; c <= 'z'; ++c) {
    vocab += ", \"" + std::string(1, c) + "\": " + std::to_string(id++);
    vocab += ", \"##" + std::string(1, c) + "\": " + std::to_string(id++);
  }
  const std::string json = R"({"pre_tokenizer": {"type": "WhitespaceSplit"},
      "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {)" +
                           vocab + "}}}";
  auto tok = tokenizer::HfTokenizer::from_json_text(json, false, "character-level");
  EXPECT_TRUE(tok.ok()) << tok.error().describe();
  return tok.ok() ? std::move(*tok) : nullptr;
}

TEST(ExactPromptMultiTokenWords, CharacterTokenizerCountsLetters) {
  auto tok = character_tokenizer();
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->count("the of"), 5u);
}

// Exact lengths even when every vocabulary word is several tokens (a letter-level tokenizer).
TEST(ExactPromptMultiTokenWords, ExactForCharacterLevelTokenizer) {
  auto tok = character_tokenizer();
  ASSERT_NE(tok, nullptr);
  for (int target : {2, 3, 7, 64}) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      std::mt19937_64 rng(seed);
      const std::string text = generate_exact_prompt(target, rng, *tok);
      EXPECT_EQ(tok->count(text), static_cast<std::size_t>(target))
          << "target " << target << " seed " << seed << ": " << text;
    }
  }
}

TEST(SyntheticPrompt, WithoutTokenizerOneWordPerToken) {
  std::mt19937_64 rng(3);
  for (int n : {1, 2, 7, 300}) {
    const std::string text = generate_prompt(n, rng);
    EXPECT_EQ(word_count(text), static_cast<std::size_t>(n));
    EXPECT_EQ(text.front() == ' ' || text.back() == ' ', false);
    EXPECT_EQ(text.find("  "), std::string::npos);
  }
}

bool same(const Dataset& a, const Dataset& b) {
  if (a.conversations.size() != b.conversations.size()) return false;
  for (std::size_t i = 0; i < a.conversations.size(); ++i) {
    const auto &ca = a.conversations[i], &cb = b.conversations[i];
    if (ca.session_id != cb.session_id || ca.turns.size() != cb.turns.size()) return false;
    for (std::size_t k = 0; k < ca.turns.size(); ++k) {
      const auto &ta = ca.turns[k], &tb = cb.turns[k];
      if (ta.role != tb.role || ta.text != tb.text || ta.max_tokens != tb.max_tokens ||
          ta.synthetic_tokens != tb.synthetic_tokens) {
        return false;
      }
    }
  }
  return true;
}

SyntheticOptions varied_options() {
  SyntheticOptions o;
  o.num_conversations = 20;
  o.isl_mean = 40;
  o.isl_stddev = 15;
  o.osl_mean = 30;
  o.osl_stddev = 10;
  return o;
}

TEST(ComposeSynthetic, SameSeedSameDatasetOtherSeedDifferent) {
  const auto o = varied_options();
  const Dataset a = compose_synthetic(o, core::RngFactory(42));
  const Dataset b = compose_synthetic(o, core::RngFactory(42));
  const Dataset c = compose_synthetic(o, core::RngFactory(43));
  ASSERT_EQ(a.conversations.size(), 20u);
  EXPECT_TRUE(same(a, b));
  EXPECT_FALSE(same(a, c));
  ASSERT_EQ(c.conversations.size(), 20u);
  int same_ids = 0, same_texts = 0;
  for (std::size_t i = 0; i < a.conversations.size(); ++i) {
    same_ids += a.conversations[i].session_id == c.conversations[i].session_id;
    same_texts += a.conversations[i].turns[0].text == c.conversations[i].turns[0].text;
  }
  EXPECT_EQ(same_ids, 0);
  EXPECT_EQ(same_texts, 0);
}

TEST(ComposeSynthetic, SameSeedSameDatasetWithTokenizer) {
  std::unique_ptr<tokenizer::HfTokenizer> tok;
  ASSERT_NO_FATAL_FAILURE(load("qwen3", tok));
  const auto o = varied_options();
  const Dataset a = compose_synthetic(o, core::RngFactory(42), tok.get());
  const Dataset b = compose_synthetic(o, core::RngFactory(42), tok.get());
  const Dataset c = compose_synthetic(o, core::RngFactory(43), tok.get());
  EXPECT_TRUE(same(a, b));
  EXPECT_FALSE(same(a, c));
}

TEST(ComposeSynthetic, SessionIdsAreUniqueUuids) {
  const Dataset d = compose_synthetic(varied_options(), core::RngFactory(5));
  std::set<std::string> ids;
  for (const auto& c : d.conversations) {
    EXPECT_EQ(c.session_id.size(), 36u) << c.session_id;
    EXPECT_EQ(c.session_id[14], '4') << c.session_id;  // version 4
    ids.insert(c.session_id);
    ASSERT_EQ(c.turns.size(), 1u);
    EXPECT_EQ(c.turns[0].role, "user");
  }
  EXPECT_EQ(ids.size(), d.conversations.size());
}

TEST(ComposeSynthetic, EveryTurnHasItsSampledTokenCount) {
  for (const std::string name : {"qwen3", "llama2"}) {
    std::unique_ptr<tokenizer::HfTokenizer> tok;
    ASSERT_NO_FATAL_FAILURE(load(name, tok));
    const Dataset d = compose_synthetic(varied_options(), core::RngFactory(11), tok.get());
    ASSERT_EQ(d.conversations.size(), 20u);
    std::set<int> lengths;
    for (const auto& c : d.conversations) {
      const Turn& t = c.turns.at(0);
      EXPECT_GE(t.synthetic_tokens, 1);
      EXPECT_EQ(tok->count(t.text), static_cast<std::size_t>(t.synthetic_tokens))
          << name << ": " << t.text;
      lengths.insert(t.synthetic_tokens);
    }
    EXPECT_GT(lengths.size(), 5u) << "stddev 15 should spread the lengths";
  }
}

TEST(ComposeSynthetic, WithoutTokenizerSyntheticTokensIsTheWordCount) {
  const Dataset d = compose_synthetic(varied_options(), core::RngFactory(12));
  for (const auto& c : d.conversations) {
    EXPECT_EQ(word_count(c.turns[0].text), static_cast<std::size_t>(c.turns[0].synthetic_tokens));
  }
}

TEST(ComposeSynthetic, ZeroStddevGivesTheMeanForEveryTurn) {
  SyntheticOptions o;
  o.num_conversations = 10;
  o.isl_mean = 33;
  o.osl_mean = 17;
  const Dataset d = compose_synthetic(o, core::RngFactory(1));
  ASSERT_EQ(d.conversations.size(), 10u);
  for (const auto& c : d.conversations) {
    EXPECT_EQ(c.turns[0].synthetic_tokens, 33);
    ASSERT_TRUE(c.turns[0].max_tokens.has_value());
    EXPECT_EQ(*c.turns[0].max_tokens, 17);
  }
}

TEST(ComposeSynthetic, OslMeanSetGivesMaxTokensUnsetLeavesItAbsent) {
  SyntheticOptions o = varied_options();
  const Dataset with = compose_synthetic(o, core::RngFactory(9));
  std::set<int> values;
  for (const auto& c : with.conversations) {
    ASSERT_TRUE(c.turns[0].max_tokens.has_value());
    EXPECT_GE(*c.turns[0].max_tokens, 1);
    values.insert(*c.turns[0].max_tokens);
  }
  EXPECT_GT(values.size(), 3u) << "osl stddev 10 should spread max_tokens";

  o.osl_mean.reset();
  const Dataset without = compose_synthetic(o, core::RngFactory(9));
  for (const auto& c : without.conversations) EXPECT_FALSE(c.turns[0].max_tokens.has_value());
  // The OSL stream is separate: prompts do not change when max_tokens is dropped.
  for (std::size_t i = 0; i < with.conversations.size(); ++i) {
    EXPECT_EQ(with.conversations[i].turns[0].text, without.conversations[i].turns[0].text);
  }
}

TEST(ComposeSynthetic, TurnCountsAndDelaysFollowTheirDistributions) {
  SyntheticOptions o;
  o.num_conversations = 200;
  o.isl_mean = 8;
  o.turn_mean = 3;
  o.turn_stddev = 1;
  o.turn_delay_mean = 100;
  o.turn_delay_stddev = 20;
  o.turn_delay_ratio = 0.5;
  const Dataset d = compose_synthetic(o, core::RngFactory(4));
  std::set<std::size_t> counts;
  double turns = 0;
  for (const auto& c : d.conversations) {
    ASSERT_GE(c.turns.size(), 1u);
    counts.insert(c.turns.size());
    turns += static_cast<double>(c.turns.size());
    EXPECT_FALSE(c.turns[0].delay_ms.has_value()) << "the first turn has no delay";
    for (std::size_t k = 1; k < c.turns.size(); ++k) {
      ASSERT_TRUE(c.turns[k].delay_ms.has_value());
      const double ms = *c.turns[k].delay_ms;
      EXPECT_EQ(ms * 2, std::floor(ms * 2)) << "an integer number of ms times the ratio 0.5";
      EXPECT_GT(ms, 10);
      EXPECT_LT(ms, 100);
      EXPECT_EQ(word_count(c.turns[k].text), 8u);
    }
  }
  EXPECT_GE(counts.size(), 4u);
  EXPECT_NEAR(turns / 200.0, 3.5, 0.25) << "ceil of normal(3, 1) averages about 3.5";
  // No delays unless a delay mean is given.
  o.turn_delay_mean = 0;
  for (const auto& c : compose_synthetic(o, core::RngFactory(4)).conversations) {
    for (const auto& t : c.turns) EXPECT_FALSE(t.delay_ms.has_value());
  }
}

TEST(ComposeSynthetic, RankingsTurnsHaveAQueryAndPassages) {
  std::unique_ptr<tokenizer::HfTokenizer> tok;
  ASSERT_NO_FATAL_FAILURE(load("llama3", tok));
  SyntheticOptions o;
  o.num_conversations = 30;
  RankingsOptions r;
  r.passages_mean = 4;
  r.passages_stddev = 1.5;
  r.passage_tokens_mean = 30;
  r.query_tokens_mean = 12;
  o.rankings = r;
  const Dataset d = compose_synthetic(o, core::RngFactory(8), tok.get());
  std::set<std::size_t> passage_counts;
  for (const auto& c : d.conversations) {
    ASSERT_EQ(c.turns.size(), 1u);
    const Turn& t = c.turns[0];
    EXPECT_EQ(t.synthetic_tokens, 12);
    EXPECT_EQ(tok->count(t.text), 12u) << t.text;
    EXPECT_TRUE(t.more_texts.empty());
    EXPECT_FALSE(t.max_tokens.has_value());
    ASSERT_GE(t.passages.size(), 1u);
    passage_counts.insert(t.passages.size());
    std::string joined = t.text;
    for (const auto& p : t.passages) {
      EXPECT_EQ(tok->count("the " + p) - 1, 30u) << p;
      joined += " " + p;
    }
    EXPECT_EQ(tok->count(joined), 12u + 30u * t.passages.size());
  }
  EXPECT_GE(passage_counts.size(), 3u) << "passage stddev 1.5 should vary the count";
}

// Prompts are planned on one thread and generated on several: the thread count never changes them.
TEST(ComposeSynthetic, ThreadCountDoesNotChangeTheDataset) {
  std::unique_ptr<tokenizer::HfTokenizer> tok;
  ASSERT_NO_FATAL_FAILURE(load("gpt4o", tok));
  SyntheticOptions o = varied_options();
  o.num_conversations = 60;
  o.turn_mean = 2;
  o.turn_stddev = 1;
  o.prompt_batch_size = 2;
  o.prefix_pool_size = 3;
  o.prefix_length = 6;
  o.shared_system_length = 9;
  o.user_context_length = 4;
  o.threads = 1;
  const Dataset one = compose_synthetic(o, core::RngFactory(21), tok.get());
  o.threads = 4;
  const Dataset four = compose_synthetic(o, core::RngFactory(21), tok.get());
  EXPECT_TRUE(same(one, four));
  EXPECT_EQ(one.system_message, four.system_message);
  for (std::size_t i = 0; i < one.conversations.size(); ++i) {
    EXPECT_EQ(one.conversations[i].user_context, four.conversations[i].user_context);
    for (std::size_t k = 0; k < one.conversations[i].turns.size(); ++k)
      EXPECT_EQ(one.conversations[i].turns[k].more_texts,
                four.conversations[i].turns[k].more_texts);
  }
}

// The request text (system, context, prefix + first turn, joined by spaces) has exactly the
// sampled pieces' total, as AIPerf counts ISL.
TEST(ComposeSynthetic, JoinedRequestTextIsExact) {
  for (const std::string name : {"qwen3", "llama3", "gpt4o", "llama2"}) {
    std::unique_ptr<tokenizer::HfTokenizer> tok;
    ASSERT_NO_FATAL_FAILURE(load(name, tok));
    SyntheticOptions o = varied_options();
    o.prefix_pool_size = 2;
    o.prefix_length = 7;
    o.shared_system_length = 11;
    o.user_context_length = 5;
    const Dataset d = compose_synthetic(o, core::RngFactory(30), tok.get());
    for (const auto& c : d.conversations) {
      const Turn& t = c.turns[0];
      const std::string joined = d.system_message + " " + c.user_context + " " + t.text;
      EXPECT_EQ(tok->count(joined), static_cast<std::size_t>(11 + 5 + 7 + t.synthetic_tokens))
          << name << ": " << joined;
    }
  }
}

TEST(ComposeSynthetic, ZeroConversationsIsAnEmptyDataset) {
  SyntheticOptions o;
  o.num_conversations = 0;
  EXPECT_TRUE(compose_synthetic(o, core::RngFactory(1)).conversations.empty());
}

}  // namespace
}  // namespace inferperf::dataset
