// A hand-written BERT-style tokenizer (tests/data/tokenizer/wordpiece-mini): BertNormalizer,
// BertPreTokenizer, WordPiece model and decoder. Expected ids are read off that file's vocab:
//   0 [PAD]  1 [UNK]  2 [CLS]  3 [SEP]  4 [MASK]  5 !  6 '  7 ,  8 .  9 ?  10 un  11 ##aff
//   12 ##able  13 play  14 ##ing  15 ##ed  16 the  17 cat  18 s  19 happy  20 hello  21 world
//   22 u  23 ##n  24 cafe  25 ω  26 ##ω  27 你  28 好  29 ##好  30 a  31 ##s  32 is  33 n  34 t
//   35 don
// max_input_chars_per_word is 12. The same expectations hold for transformers.js on this file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tokenizer/hf_tokenizer.hpp"
#include "tokenizer/resolve.hpp"

namespace inferperf::tokenizer {
namespace {

using Ids = std::vector<std::int32_t>;

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

class WordPiece : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto path = testing::wordpiece_mini_path();
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    auto t = HfTokenizer::load(path);
    ASSERT_TRUE(t.ok()) << t.error().describe();
    tok_ = std::move(*t);
  }
  Ids enc(const std::string& s) const { return tok_->encode(s); }
  std::string dec(const Ids& ids) const { return tok_->decode(ids); }

  std::unique_ptr<HfTokenizer> tok_;
};

TEST_F(WordPiece, GreedyLongestMatchWithContinuationPieces) {
  EXPECT_EQ(enc("unaffable"), (Ids{10, 11, 12}));
  EXPECT_EQ(enc("un"), (Ids{10}));       // "un" beats "u"
  EXPECT_EQ(enc("unn"), (Ids{10, 23}));  // continuation piece "##n", not "n"
  EXPECT_EQ(enc("played"), (Ids{13, 15}));
  EXPECT_EQ(enc("plays"), (Ids{13, 31}));  // "##s", not the word "s"
}

TEST_F(WordPiece, LowercasesAndSplitsPunctuation) {
  EXPECT_EQ(enc("Playing!"), (Ids{13, 14, 5}));
  EXPECT_EQ(enc("Is a cat happy?"), (Ids{32, 30, 17, 19, 9}));
  EXPECT_EQ(enc("The cat's happy."), (Ids{16, 17, 6, 18, 19, 8}));
  EXPECT_EQ(enc("don't"), (Ids{35, 6, 34}));
  EXPECT_EQ(enc("  hello\t\nworld  "), (Ids{20, 21}));
}

TEST_F(WordPiece, UnknownWordIsOneUnkEvenAfterAPartialMatch) {
  // "un" matches, then nothing matches "##knownword": the whole word is one [UNK], not [un, UNK].
  EXPECT_EQ(enc("UNKNOWNWORD"), (Ids{1}));
  EXPECT_EQ(enc("hello UNKNOWNWORD world"), (Ids{20, 1, 21}));
  EXPECT_EQ(enc("xyz"), (Ids{1}));
}

TEST_F(WordPiece, MaxInputCharsPerWordCountsCodePoints) {
  // Limit 12: a 12-character word is split, a 13-character word becomes [UNK].
  EXPECT_EQ(enc("unaffableing"), (Ids{10, 11, 12, 14}));
  EXPECT_EQ(enc("unaffableable"), (Ids{1}));
  // Twelve 2-byte characters are 24 bytes but 12 characters: still within the limit.
  EXPECT_EQ(enc(repeat("ω", 12)), (Ids{25, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26}));
  EXPECT_EQ(enc(repeat("ω", 13)), (Ids{1}));
  // The limit applies per word, not per text.
  EXPECT_EQ(enc("unaffableing unaffableing"), (Ids{10, 11, 12, 14, 10, 11, 12, 14}));
}

TEST_F(WordPiece, MaxInputCharsPerWordComesFromTheFile) {
  std::string json = testing::read_file(testing::wordpiece_mini_path());
  const std::string from = "\"max_input_chars_per_word\": 12";
  const auto at = json.find(from);
  ASSERT_NE(at, std::string::npos);
  json.replace(at, from.size(), "\"max_input_chars_per_word\": 100");
  auto t = HfTokenizer::from_json_text(json, true, "wordpiece-mini (limit 100)");
  ASSERT_TRUE(t.ok()) << t.error().describe();
  EXPECT_EQ((*t)->encode("unaffableable"), (Ids{10, 11, 12, 12}));
  EXPECT_EQ((*t)->encode(repeat("ω", 13)).size(), 13u);
}

TEST_F(WordPiece, NormalizerStripsAccentsCleansTextAndSplitsChinese) {
  EXPECT_EQ(enc("CAF\xc3\x89"), (Ids{24}));   // "CAFÉ": lowercase implies strip_accents
  EXPECT_EQ(enc("Cafe\xcc\x81"), (Ids{24}));  // decomposed accent
  // Each CJK character is its own word: 好 is "好", not "##好".
  EXPECT_EQ(enc("你好"), (Ids{27, 28}));
  // clean_text drops NUL and format characters (U+200B): "hello" + "world" is one word.
  EXPECT_EQ(enc(std::string("hello\0world", 11)), (Ids{1}));
  EXPECT_EQ(enc("hello\xe2\x80\x8bworld"), (Ids{1}));
  EXPECT_EQ(enc(""), (Ids{}));
  EXPECT_EQ(enc("  \t\n "), (Ids{}));
}

TEST_F(WordPiece, SpecialTokensMatchBeforeLowercasing) {
  EXPECT_EQ(enc("[CLS] Hello, world! [SEP]"), (Ids{2, 20, 7, 21, 5, 3}));
  EXPECT_EQ(enc("[MASK]"), (Ids{4}));
  // Lowercase text is not the special token: "[", "cls", "]" are three unknown words.
  EXPECT_EQ(enc("[cls] hello"), (Ids{1, 1, 1, 20}));
}

TEST_F(WordPiece, DecodeJoinsContinuationPiecesAndCleansUpSpaces) {
  EXPECT_EQ(dec({10, 11, 12}), "unaffable");
  EXPECT_EQ(dec({13, 14, 5}), "playing!");
  EXPECT_EQ(dec({20, 9, 21, 7}), "hello? world,");
  EXPECT_EQ(dec({25, 26, 26}), "\xcf\x89\xcf\x89\xcf\x89");
  EXPECT_EQ(dec({2, 20, 3}), "[CLS] hello [SEP]");
  EXPECT_EQ(dec({1}), "[UNK]");
  EXPECT_EQ(dec({}), "");
  // " ' " only spans tokens, so it is the tokenizer_config.json cleanup that removes it.
  EXPECT_EQ(dec({16, 17, 6, 18, 19, 8}), "the cat's happy.");
  EXPECT_EQ(dec({35, 6, 34}), "don't");
}

TEST_F(WordPiece, TokenizerConfigControlsTokenLevelCleanup) {
  auto t = HfTokenizer::from_json_text(testing::read_file(testing::wordpiece_mini_path()), false,
                                       "wordpiece-mini (no cleanup)");
  ASSERT_TRUE(t.ok()) << t.error().describe();
  const Ids ids{16, 17, 6, 18, 19, 8};
  // The WordPiece decoder's own per-token cleanup still applies (" ." -> ".").
  EXPECT_EQ((*t)->decode(ids), "the cat ' s happy.");
  EXPECT_EQ((*t)->encode("The cat's happy."), ids);
}

TEST_F(WordPiece, EncodeDecodeRoundTripOfLowercaseText) {
  for (const std::string s :
       {"hello world", "the cat's happy.", "is a cat playing?", "unaffable, happy!"}) {
    const Ids ids = enc(s);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), 1), 0) << s;  // no [UNK]
    EXPECT_EQ(dec(ids), s);
  }
  EXPECT_EQ(dec(enc("Hello, World!")), "hello, world!");
}

TEST_F(WordPiece, LoadsThroughLoadTokenizerFile) {
  auto t = load_tokenizer_file(testing::wordpiece_mini_path());
  ASSERT_TRUE(t.ok()) << t.error().describe();
  EXPECT_EQ((*t)->encode("unaffable"), (Ids{10, 11, 12}));
  EXPECT_EQ((*t)->count("Playing!"), 3u);
}

// Added tokens that are also in the model vocabulary count once.
TEST_F(WordPiece, VocabSizeCountsAddedTokensThatAreInTheVocabOnce) {
  EXPECT_EQ(tok_->vocab_size(), 36u);
}

TEST(WordPieceErrors, UnkTokenMissingFromVocabIsAnError) {
  std::string json = testing::read_file(testing::wordpiece_mini_path());
  const std::string from = "\"unk_token\": \"[UNK]\"";
  const auto at = json.find(from);
  ASSERT_NE(at, std::string::npos);
  json.replace(at, from.size(), "\"unk_token\": \"<unk>\"");
  auto t = HfTokenizer::from_json_text(json, true, "broken.json");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("<unk>"), std::string::npos) << t.error().message;
  EXPECT_EQ(t.error().file, "broken.json");
}

TEST(WordPieceErrors, UnsupportedModelTypeIsNamed) {
  auto t =
      HfTokenizer::from_json_text(R"({"model": {"type": "Unigram", "vocab": []}})", true, "u.json");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("Unigram"), std::string::npos) << t.error().message;
}

}  // namespace
}  // namespace inferperf::tokenizer
