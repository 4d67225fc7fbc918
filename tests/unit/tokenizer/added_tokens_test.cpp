// Added (special) tokens inside ordinary text: each occurrence is exactly one id, near-misses are
// ordinary text, and decoding gives the text back. Ids are those of the real qwen3 and llama3
// tokenizers (the same as the pinned JavaScript reference gives).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::tokenizer {
namespace {

using Ids = std::vector<std::int32_t>;

// One load per tokenizer per test process.
const HfTokenizer* tokenizer(const std::string& name) {
  static std::map<std::string, std::unique_ptr<HfTokenizer>> cache;
  auto& slot = cache[name];
  if (!slot) testing::load_real_tokenizer(name, slot);
  return slot.get();
}

struct AddedCase {
  std::string label;  // the test name shown by CTest
  std::string tokenizer;
  std::string text;
  Ids ids;
};

void PrintTo(const AddedCase& c, std::ostream* os) {
  *os << c.label;
}

class AddedTokens : public ::testing::TestWithParam<AddedCase> {};

TEST_P(AddedTokens, EncodeGivesExactIdsAndDecodeGivesTheTextBack) {
  const AddedCase& c = GetParam();
  const HfTokenizer* tok = tokenizer(c.tokenizer);
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->encode(c.text), c.ids);
  EXPECT_EQ(tok->count(c.text), c.ids.size());
  EXPECT_EQ(tok->decode(c.ids), c.text);
}

INSTANTIATE_TEST_SUITE_P(
    Qwen3, AddedTokens,
    ::testing::Values(
        AddedCase{"im_end", "qwen3", "<|im_end|>", {151645}},
        AddedCase{"im_end_inside_text", "qwen3", "hello<|im_end|>world", {14990, 151645, 14615}},
        AddedCase{"chat_turn",
                  "qwen3",
                  "<|im_start|>user\nhi<|im_end|>\n",
                  {151644, 872, 198, 6023, 151645, 198}},
        AddedCase{"adjacent_specials", "qwen3", "<|im_end|><|im_start|>", {151645, 151644}},
        AddedCase{"endoftext_after_text", "qwen3", "x<|endoftext|>", {87, 151643}},
        // Added but not special: matched all the same.
        AddedCase{"think_not_special", "qwen3", "<think>ok</think>", {151667, 562, 151668}},
        // Near-misses are ordinary text.
        AddedCase{"near_miss_space", "qwen3", "<|im_end |>", {27, 91, 318, 6213, 58721}},
        AddedCase{"near_miss_truncated", "qwen3", "<|im_end", {27, 91, 318, 6213}},
        AddedCase{"near_miss_uppercase", "qwen3", "<|IM_END|>", {27, 91, 1791, 10898, 91, 29}}));

INSTANTIATE_TEST_SUITE_P(
    Llama3, AddedTokens,
    ::testing::Values(
        AddedCase{"begin_of_text", "llama3", "<|begin_of_text|>", {128000}},
        AddedCase{"begin_of_text_then_text", "llama3", "<|begin_of_text|>Hello", {128000, 9906}},
        AddedCase{"header_turn",
                  "llama3",
                  "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>",
                  {128006, 882, 128007, 271, 13347, 128009}},
        // Longest match: _10 is not _1 followed by "0".
        AddedCase{"longest_match_10", "llama3", "<|reserved_special_token_10|>", {128015}},
        AddedCase{"reserved_1", "llama3", "<|reserved_special_token_1|>", {128003}},
        AddedCase{
            "near_miss_space", "llama3", "<|begin_of_text |>", {27, 91, 7413, 3659, 4424, 59821}},
        AddedCase{"near_miss_truncated", "llama3", "<|begin_of_text", {27, 91, 7413, 3659, 4424}},
        AddedCase{"near_miss_space_after_lt",
                  "llama3",
                  "< |begin_of_text|>",
                  {27, 765, 7413, 3659, 4424, 91, 29}}));

TEST(AddedTokensNearMiss, NearMissNeverProducesTheSpecialId) {
  const HfTokenizer* qwen3 = tokenizer("qwen3");
  ASSERT_NE(qwen3, nullptr);
  for (const std::string s :
       {"<|im_end |>", "<| im_end|>", "<|im_end|", "|im_end|>", "<|im-end|>"}) {
    const Ids ids = qwen3->encode(s);
    EXPECT_GT(ids.size(), 1u) << s;
    EXPECT_EQ(std::count(ids.begin(), ids.end(), 151645), 0) << s;
    EXPECT_EQ(qwen3->decode(ids), s);
  }
  const HfTokenizer* llama3 = tokenizer("llama3");
  ASSERT_NE(llama3, nullptr);
  for (const std::string s : {"<|begin_of_text |>", "<|Begin_of_text|>", "<|begin_of_text>"}) {
    const Ids ids = llama3->encode(s);
    EXPECT_GT(ids.size(), 1u) << s;
    EXPECT_EQ(std::count(ids.begin(), ids.end(), 128000), 0) << s;
    EXPECT_EQ(llama3->decode(ids), s);
  }
}

TEST(AddedTokensCount, EveryOccurrenceIsOneToken) {
  const HfTokenizer* qwen3 = tokenizer("qwen3");
  ASSERT_NE(qwen3, nullptr);
  std::string text;
  for (int i = 0; i < 50; ++i) text += "<|im_start|>user\nhello<|im_end|>\n";
  const Ids ids = qwen3->encode(text);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), 151644), 50);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), 151645), 50);
  EXPECT_EQ(ids.size(), 50u * 6u);  // <|im_start|> user \n hello <|im_end|> \n
  EXPECT_EQ(qwen3->decode(ids), text);
}

}  // namespace
}  // namespace inferperf::tokenizer
