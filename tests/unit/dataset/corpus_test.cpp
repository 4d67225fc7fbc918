// The shipped corpus, its chunking, token windows and exact corpus prompts.
#include "dataset/corpus.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "dataset/synthetic.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<tokenizer::HfTokenizer> load(const std::string& name) {
  const auto path = fs::path(INFERPERF_SOURCE_DIR) / ".cache/tokenizers" / name / "tokenizer.json";
  EXPECT_TRUE(fs::exists(path)) << path << " is missing: run scripts/fetch-tokenizers.sh";
  auto tok = tokenizer::HfTokenizer::load(path);
  EXPECT_TRUE(tok.ok()) << tok.error().describe();
  return tok.ok() ? std::move(*tok) : nullptr;
}

std::string joined_corpus() {
  std::string all;
  for (const auto& c : corpus_chunks(builtin_corpus_text())) all += c + " ";
  return all;
}

TEST(BuiltinCorpus, IsTheWholeDevilsDictionary) {
  const std::string_view text = builtin_corpus_text();
  EXPECT_EQ(text.size(), 382700u);
  EXPECT_EQ(text.substr(0, 40).find("PREFACE"), 30u);
  EXPECT_NE(text.find("ZOOLOGY, n.  The science and history of the animal kingdom"),
            std::string_view::npos);
  EXPECT_EQ(text.back(), '\n');
}

TEST(CorpusChunks, StripsLinesDropsBlanksAndJoinsWithOneSpace) {
  const auto chunks = corpus_chunks("  alpha beta \n\n\t gamma\n   \ndelta\n", 12);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0], "alpha beta gamma");  // 10 chars after two lines, 16 after three
  EXPECT_EQ(chunks[1], "delta");
}

TEST(CorpusChunks, EveryChunkButTheLastHasTheMinimumSize) {
  const auto chunks = corpus_chunks(builtin_corpus_text());
  ASSERT_GT(chunks.size(), 20u);
  for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
    EXPECT_GE(chunks[i].size(), 10000u) << i;
    EXPECT_LT(chunks[i].size(), 10000u + 200u) << i;  // lines are short: stops right after 10 000
    EXPECT_EQ(chunks[i].find("  \n"), std::string::npos);
    EXPECT_EQ(chunks[i].find('\n'), std::string::npos);
  }
}

TEST(TokenCorpus, WindowsWrapAroundTheEnd) {
  auto tok = load("qwen3");
  ASSERT_NE(tok, nullptr);
  const TokenCorpus corpus("one two three four five six seven", *tok);
  ASSERT_EQ(corpus.size(), 7u);
  EXPECT_EQ(corpus.window_text(0, 3), " one two three");  // chunks start with a space
  EXPECT_EQ(corpus.window_text(5, 4), " six seven one two");
  EXPECT_EQ(corpus.window_text(12, 2), " six seven");  // start is taken modulo the size
  EXPECT_EQ(corpus.window_text(0, 15),
            " one two three four five six seven one two three four five six seven one");
  EXPECT_EQ(corpus.window_text(3, 0), "");
}

class CorpusPrompt : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusPrompt, ExactForEveryTargetAndTakenFromTheCorpus) {
  auto tok = load(GetParam());
  ASSERT_NE(tok, nullptr);
  const TokenCorpus corpus(builtin_corpus_text(), *tok);
  ASSERT_GT(corpus.size(), 50000u);
  const std::string all = joined_corpus();
  for (int target : {1, 2, 7, 64, 513, 4096}) {
    for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
      std::mt19937_64 rng(seed);
      const std::string text =
          generate_corpus_prompt(target, rng, corpus, PieceCounter(*tok, false));
      ASSERT_EQ(tok->count(text), static_cast<std::size_t>(target))
          << GetParam() << " target " << target << " seed " << seed << ": " << text.substr(0, 200);
      if (target >= 64) {
        // Real prose from the corpus, not the fallback word list.
        const std::string probe = text.substr(text.size() / 2, 40);
        EXPECT_NE(all.find(probe), std::string::npos) << probe;
      }
    }
  }
}

TEST_P(CorpusPrompt, LongerThanTheCorpusWrapsAndStaysExact) {
  auto tok = load(GetParam());
  ASSERT_NE(tok, nullptr);
  const TokenCorpus corpus(builtin_corpus_text().substr(0, 20000), *tok);
  std::mt19937_64 rng(9);
  const int target = static_cast<int>(corpus.size() * 2 + 17);
  EXPECT_EQ(tok->count(generate_corpus_prompt(target, rng, corpus, PieceCounter(*tok, false))),
            static_cast<std::size_t>(target));
}

TEST_P(CorpusPrompt, SeedsPickDifferentPlaces) {
  auto tok = load(GetParam());
  ASSERT_NE(tok, nullptr);
  const TokenCorpus corpus(builtin_corpus_text(), *tok);
  std::set<std::string> texts;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    std::mt19937_64 rng(seed), again(seed);
    const std::string text = generate_corpus_prompt(32, rng, corpus, PieceCounter(*tok, false));
    EXPECT_EQ(text, generate_corpus_prompt(32, again, corpus, PieceCounter(*tok, false)));
    texts.insert(text);
  }
  EXPECT_EQ(texts.size(), 10u);
}

// Pieces joined by one space (system, user context, prefix, turn) add up exactly when every
// piece after the first is generated as a following piece.
TEST_P(CorpusPrompt, JoinedPiecesAddUp) {
  auto tok = load(GetParam());
  ASSERT_NE(tok, nullptr);
  const TokenCorpus corpus(builtin_corpus_text(), *tok);
  const PieceCounter first(*tok, false), follows(*tok, true);
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    std::mt19937_64 rng(seed);
    const int a = 1 + static_cast<int>(seed % 7), b = 3 + static_cast<int>(seed % 11), c = 20;
    const std::string pa = generate_corpus_prompt(a, rng, corpus, first);
    const std::string pb = generate_corpus_prompt(b, rng, corpus, follows);
    const std::string pc = generate_corpus_prompt(c, rng, corpus, follows);
    EXPECT_NE(pb.front(), ' ');
    EXPECT_NE(pb.back(), ' ');
    EXPECT_EQ(tok->count(pa + " " + pb + " " + pc), static_cast<std::size_t>(a + b + c))
        << GetParam() << " seed " << seed << ": [" << pa << "] [" << pb << "] [" << pc << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(Tokenizers, CorpusPrompt,
                         ::testing::Values("qwen3", "llama3", "gpt4o", "llama2"));

TEST(CorpusPrompt, EmptyCorpusFallsBackToWords) {
  auto tok = load("gpt4o");
  ASSERT_NE(tok, nullptr);
  const TokenCorpus corpus("", *tok);
  std::mt19937_64 rng(1);
  EXPECT_EQ(tok->count(generate_corpus_prompt(20, rng, corpus, PieceCounter(*tok, false))), 20u);
}

}  // namespace
}  // namespace inferperf::dataset
