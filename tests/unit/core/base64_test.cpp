#include "core/base64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace inferperf::core {
namespace {

TEST(Base64, RoundTripsEveryLengthWithPadding) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  for (std::size_t n = 0; n < 10; ++n) {
    std::string bytes;
    for (std::size_t i = 0; i < n; ++i) bytes.push_back(static_cast<char>(0xf0 + i * 37));
    const std::string text = base64_encode(bytes);
    EXPECT_EQ(text.size() % 4, 0u);
    EXPECT_EQ(base64_decode_strict(text), bytes) << text;
  }
}

TEST(Base64, TheDecoderRefusesAnythingButStrictBase64) {
  // Whitespace, other alphabets, missing or misplaced padding, a data: prefix.
  for (const char* bad : {"QUJD\n", "QU JD", "QUJ$", "-_-_", "Q===", "QQ=", "QQ", "QUJD=", "=QUJ",
                          "QQ==QQ==", "QUJDR", "data:image/png;base64,QUJD"}) {
    EXPECT_FALSE(base64_decode_strict(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace inferperf::core
