// sanitize_utf8 must replace invalid input exactly as the WHATWG decoder (TextDecoder, Python's
// "replace" handler) does: one U+FFFD per maximal invalid subpart.
#include "tokenizer/utf8.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::tokenizer {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

std::string fffd(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += kFffd;
  return s;
}

struct Case {
  const char* name;
  std::string in;
  std::string out;
};

// The test name shown by CTest.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

class SanitizeUtf8 : public ::testing::TestWithParam<Case> {};

TEST_P(SanitizeUtf8, MatchesWhatwgDecoder) {
  const Case& c = GetParam();
  EXPECT_EQ(sanitize_utf8(c.in), c.out) << c.name;
  EXPECT_FALSE(is_valid_utf8(c.in)) << c.name;
  EXPECT_TRUE(is_valid_utf8(sanitize_utf8(c.in))) << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    Invalid, SanitizeUtf8,
    ::testing::Values(Case{"lone_FF_between_ascii",
                           "a\xff"
                           "b",
                           "a" + fffd(1) + "b"},
                      Case{"lone_continuation_byte", "x\x80y", "x" + fffd(1) + "y"},
                      Case{"two_continuation_bytes", "\x80\xbf", fffd(2)},
                      Case{"truncated_3_byte_at_end", "\xe2\x82", fffd(1)},
                      Case{"truncated_3_byte_before_ascii", "\xe2\x82x", fffd(1) + "x"},
                      Case{"lead_byte_alone_before_ascii", "\xe2x", fffd(1) + "x"},
                      Case{"truncated_4_byte", "\xf0\x9f\x98", fffd(1)},
                      Case{"truncated_4_byte_then_emoji", "\xf0\x9f\x98\xf0\x9f\x98\x80",
                           fffd(1) + "\xf0\x9f\x98\x80"},
                      Case{"overlong_2_byte_slash", "\xc0\xaf", fffd(2)},
                      Case{"overlong_2_byte_C1_lead", "\xc1\xbf", fffd(2)},
                      Case{"overlong_3_byte_nul", "\xe0\x80\x80", fffd(3)},
                      Case{"overlong_4_byte", "\xf0\x80\x80\x80", fffd(4)},
                      Case{"surrogate_D800", "\xed\xa0\x80", fffd(3)},
                      Case{"surrogate_DFFF", "\xed\xbf\xbf", fffd(3)},
                      Case{"above_10FFFF", "\xf4\x90\x80\x80", fffd(4)},
                      Case{"lead_byte_F5", "\xf5\x80\x80\x80", fffd(4)},
                      Case{"lead_byte_FE", "\xfe", fffd(1)},
                      Case{"2_byte_lead_then_lead", "\xc3\xc3\xa9", fffd(1) + "\xc3\xa9"},
                      Case{"invalid_bytes_around_valid_text", "\xff\xc3\xa9t\xc3\xa9\xff",
                           fffd(1) + "\xc3\xa9t\xc3\xa9" + fffd(1)}));

TEST(Utf8, ValidTextIsUnchanged) {
  const std::vector<std::string> texts = {
      "",
      "plain ASCII, with punctuation!",
      "h\xc3\xa9llo w\xc3\xb6rld",                          // 2-byte
      "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",               // 3-byte
      "\xf0\x9f\x98\x80 \xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd",  // 4-byte
      "\xed\x9f\xbf",                                       // U+D7FF, just below the surrogates
      "\xee\x80\x80",                                       // U+E000, just above them
      "\xf4\x8f\xbf\xbf",                                   // U+10FFFF
      "\xef\xbf\xbd",                                       // U+FFFD itself
      std::string("nul\0inside", 10),
  };
  for (const auto& t : texts) {
    EXPECT_TRUE(is_valid_utf8(t)) << t;
    EXPECT_EQ(sanitize_utf8(t), t);
  }
}

TEST(Utf8, CodePointRoundTripAtEncodingBoundaries) {
  const char32_t cps[] = {0x0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF};
  const std::size_t lens[] = {1, 1, 1, 2, 2, 3, 3, 4, 4};
  std::string all;
  for (std::size_t k = 0; k < std::size(cps); ++k) {
    std::string one;
    append_utf8(one, cps[k]);
    EXPECT_EQ(one.size(), lens[k]) << std::hex << static_cast<std::uint32_t>(cps[k]);
    EXPECT_EQ(utf8_len(static_cast<unsigned char>(one[0])), lens[k]);
    all += one;
  }
  EXPECT_TRUE(is_valid_utf8(all));
  std::size_t i = 0;
  for (char32_t cp : cps) {
    ASSERT_LT(i, all.size());
    EXPECT_EQ(next_code_point(all, i), cp);
  }
  EXPECT_EQ(i, all.size());
}

TEST(Utf8, EncodeOfInvalidInputEqualsEncodeOfSanitizedInput) {
  std::unique_ptr<HfTokenizer> qwen3;
  ASSERT_NO_FATAL_FAILURE(testing::load_real_tokenizer("qwen3", qwen3));
  const std::vector<std::string> inputs = {
      "a\xff"
      "b",
      "caf\xc3 latte",
      "price \xe2\x82 euro",
      "slash \xc0\xaf overlong",
      "surrogate \xed\xa0\x80 here",
      "emoji cut \xf0\x9f\x98",
      "\x80\x80\x80 leading continuation bytes",
      "<|im_end|>\xff<|im_start|>",
  };
  for (const auto& in : inputs) {
    const std::string clean = sanitize_utf8(in);
    ASSERT_NE(clean, in);
    const auto ids = qwen3->encode(in);
    EXPECT_FALSE(ids.empty());
    EXPECT_EQ(ids, qwen3->encode(clean)) << clean;
    // Each U+FFFD is real text the model sees: decoding gives the sanitized string back.
    EXPECT_EQ(qwen3->decode(ids), clean);
  }
}

}  // namespace
}  // namespace inferperf::tokenizer
