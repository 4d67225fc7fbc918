// Output token counts bounded per text: ordinary text is counted exactly, a giant "word" is merged
// in slices, and a text over the exact-count limit is estimated from a sample and flagged.
#include "tokenizer/bounded_count.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "test_support.hpp"
#include "tokenizer/bpe_model.hpp"
#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {
namespace {

using testing::load_real_tokenizer;

std::string ordinary_text(std::size_t bytes) {
  const std::string para =
      "The quick brown fox jumps over the lazy dog; it was 3.14 degrees at 07:45 in "
      "Zurich, wasn't it?\nSo-called \"benchmarks\" measure latency (TTFT, ITL) and "
      "throughput: 1,234 tokens/s. See https://example.com/a/very/long/path?with=query&and="
      "parameters#fragment for more. Ünïcödé, 日本語のテキスト, emoji 🚀🔥 and tabs\tto end.\n\n";
  std::string text;
  while (text.size() < bytes) text += para;
  return text;
}

TEST(Utf8Prefix, NeverEndsInsideACodePoint) {
  const std::string euro = "a€b";  // '€' is 3 bytes: positions 1..3
  EXPECT_EQ(utf8_prefix(euro, 10), euro.size());
  EXPECT_EQ(utf8_prefix(euro, 1), 1u);
  EXPECT_EQ(utf8_prefix(euro, 2), 1u);
  EXPECT_EQ(utf8_prefix(euro, 3), 1u);
  EXPECT_EQ(utf8_prefix(euro, 4), 4u);
  EXPECT_EQ(utf8_prefix(std::string(10, '\x80'), 6), 6u);  // invalid UTF-8: the plain cut
}

class BoundedCount : public ::testing::TestWithParam<std::string> {};

TEST_P(BoundedCount, OrdinaryTextIsCountedExactly) {
  std::unique_ptr<HfTokenizer> tok;
  load_real_tokenizer(GetParam(), tok);
  ASSERT_NE(tok, nullptr);
  const std::string text = ordinary_text(200 * 1024);
  const auto c = count_bounded(*tok, text);
  EXPECT_FALSE(c.estimated);
  EXPECT_EQ(c.tokens, static_cast<std::int64_t>(tok->encode(text).size()));
  // Under a limit the text fits exactly, still exact.
  EXPECT_EQ(count_bounded(*tok, text, text.size()).tokens, c.tokens);
  EXPECT_FALSE(count_bounded(*tok, text, text.size()).estimated);
}

TEST_P(BoundedCount, OverTheLimitIsAFlaggedEstimateScaledFromTheSample) {
  std::unique_ptr<HfTokenizer> tok;
  load_real_tokenizer(GetParam(), tok);
  ASSERT_NE(tok, nullptr);
  const std::string text = ordinary_text(600 * 1024);
  const auto exact = static_cast<double>(tok->count(text));
  const auto c = count_bounded(*tok, text, 256 * 1024, 128 * 1024);
  EXPECT_TRUE(c.estimated);
  EXPECT_NEAR(static_cast<double>(c.tokens), exact, exact * 0.02);
  const std::size_t cut = utf8_prefix(text, 128 * 1024);
  const double sampled = static_cast<double>(tok->count(std::string_view(text).substr(0, cut)));
  EXPECT_EQ(c.tokens,
            std::llround(sampled * static_cast<double>(text.size()) / static_cast<double>(cut)));
}

TEST_P(BoundedCount, AGiantWordIsMergedInSlices) {
  std::unique_ptr<HfTokenizer> tok;
  load_real_tokenizer(GetParam(), tok);
  ASSERT_NE(tok, nullptr);
  // A 3-byte character repeated past several slices: every slice ends on a character boundary,
  // so the ids still decode to the text.
  std::string euros;
  for (int i = 0; i < 6000; ++i) euros += "€";
  const auto ids = tok->encode(euros);
  EXPECT_GT(ids.size(), 0u);
  EXPECT_LE(ids.size(), euros.size());
  if (GetParam() == "gpt4o") {
    EXPECT_EQ(tok->decode(ids), euros);
  }
}

INSTANTIATE_TEST_SUITE_P(Real, BoundedCount, ::testing::Values("gpt4o", "llama2"));

TEST(BoundedCountGpt4o, AGiantWordCostsItsSlicesExactly) {
  std::unique_ptr<HfTokenizer> tok;
  load_real_tokenizer("gpt4o", tok);
  ASSERT_NE(tok, nullptr);
  // o200k splits no "x" run: one 64 KiB word is 16 slices of kMaxMergeWordBytes, each counted as
  // one slice alone is.
  const auto slice = static_cast<std::int64_t>(tok->count(std::string(kMaxMergeWordBytes, 'x')));
  ASSERT_GT(slice, 0);
  EXPECT_EQ(static_cast<std::int64_t>(tok->count(std::string(16 * kMaxMergeWordBytes, 'x'))),
            16 * slice);
  // Past the exact-count limit: the first MiB (256 slices) scaled to the whole text.
  const std::string huge(kMaxExactCountBytes + (2u << 20), 'x');
  const auto c = count_bounded(*tok, huge);
  EXPECT_TRUE(c.estimated);
  const double per_byte =
      static_cast<double>(256 * slice) / static_cast<double>(kEstimateSampleBytes);
  EXPECT_EQ(c.tokens, std::llround(per_byte * static_cast<double>(huge.size())));
}

}  // namespace
}  // namespace inferperf::tokenizer
