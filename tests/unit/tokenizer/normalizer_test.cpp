// NFC with stable-code-point shortcuts must equal utf8proc's NFC of the whole string.
#include "tokenizer/normalizer.hpp"

#include <gtest/gtest.h>
#include <utf8proc.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {
namespace {

std::string whole_nfc(const std::string& s) {
  auto* p = utf8proc_NFC(reinterpret_cast<const utf8proc_uint8_t*>(s.c_str()));
  std::string out(reinterpret_cast<char*>(p));
  std::free(p);
  return out;
}

TEST(UnicodeNormalize, NfcEqualsWholeStringNfcOnRandomMixtures) {
  // Bases, combining marks in several classes, precomposed letters, Hangul jamo and syllables,
  // kana with (semi-)voiced marks, CJK, Arabic with hamza marks, singletons and exclusions.
  const std::vector<char32_t> pool = {
      'a',    'e',    'o',    'A',    ' ',    '.',    '1',    0x00E9,  0x00C5, 0x0301, 0x0300,
      0x0308, 0x0327, 0x0323, 0x031B, 0x0345, 0x05B0, 0x0591, 0x0CBC,  0x1100, 0x1161, 0x11A8,
      0xAC00, 0xAC01, 0x3099, 0x309A, 0x304B, 0x30CF, 0x4E00, 0x6F22,  0x0627, 0x0653, 0x0654,
      0x0655, 0x0644, 0x212B, 0x2126, 0x0958, 0x0915, 0x093C, 0x1F600, 0x0F73, 0x0F71, 0x0F72,
      0x0340, 0xFB2C, 0x05E9, 0x05C1, 0x1E0A, 0x0307, 0x00A8, 0xFF21,  0x2460};
  std::mt19937 rng(17);
  for (int round = 0; round < 20000; ++round) {
    std::string s;
    const int len = static_cast<int>(rng() % 12);
    for (int i = 0; i < len; ++i) append_utf8(s, pool[rng() % pool.size()]);
    ASSERT_EQ(unicode_normalize(s, "NFC"), whole_nfc(s)) << "round " << round;
  }
}

TEST(UnicodeNormalize, KnownCompositions) {
  EXPECT_EQ(unicode_normalize("e\xCC\x81", "NFC"), "\xC3\xA9");                     // e + acute
  EXPECT_EQ(unicode_normalize("\xE1\x84\x80\xE1\x85\xA1", "NFC"), "\xEA\xB0\x80");  // jamo -> 가
  EXPECT_EQ(unicode_normalize("\xE3\x81\x8B\xE3\x82\x99", "NFC"), "\xE3\x81\x8C");  // か + ゙ -> が
  EXPECT_EQ(unicode_normalize("\xE2\x84\xAB", "NFC"), "\xC3\x85");                  // Å sign -> Å
  EXPECT_EQ(unicode_normalize("plain ascii", "NFC"), "plain ascii");
}

}  // namespace
}  // namespace inferperf::tokenizer
