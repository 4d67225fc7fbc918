// Text helpers behind normalizers and decoders.
#include "tokenizer/text_util.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace inferperf::tokenizer {
namespace {

TEST(ReplaceAllAnchored, MatchesPlainReplaceAllOnRandomText) {
  const std::string alphabet = " 'n.t?s!m,vrex";
  const std::pair<std::string, std::string> rules[] = {{" .", "."},   {" ' ", "'"}, {" n't", "n't"},
                                                       {" 's", "'s"}, {"  ", "_"},  {"'", "''"},
                                                       {"ab", ""}};
  std::mt19937 rng(5);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i) text += alphabet[rng() % alphabet.size()];
    for (const auto& [from, to] : rules) {
      ASSERT_EQ(replace_all_anchored(text, from, to), replace_all(text, from, to))
          << "text [" << text << "] rule [" << from << "]";
    }
  }
}

TEST(CleanUpTokenization, AppliesTheTransformersRulesInOrder) {
  EXPECT_EQ(clean_up_tokenization("Hello , world ! I do n't know . It 's ' ok '"),
            "Hello, world! I don't know. It's'ok '");
  EXPECT_EQ(clean_up_tokenization("nothing to do"), "nothing to do");
  EXPECT_EQ(clean_up_tokenization(" . . ."), "...");
}

}  // namespace
}  // namespace inferperf::tokenizer
