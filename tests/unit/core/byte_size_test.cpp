#include "core/byte_size.hpp"

#include <gtest/gtest.h>

namespace inferperf::core {
namespace {

TEST(ByteSize, ParsesPlainNumbersAndBinarySuffixesInAnyCase) {
  EXPECT_EQ(parse_byte_size("0"), 0u);
  EXPECT_EQ(parse_byte_size("1048576"), 1048576u);
  EXPECT_EQ(parse_byte_size("512b"), 512u);
  EXPECT_EQ(parse_byte_size("4K"), 4096u);
  EXPECT_EQ(parse_byte_size("512M"), 512ull << 20);
  EXPECT_EQ(parse_byte_size("8GiB"), 8ull << 30);
  EXPECT_EQ(parse_byte_size("2gb"), 2ull << 30);
  EXPECT_EQ(parse_byte_size("1T"), 1ull << 40);
}

TEST(ByteSize, RefusesFractionsSignsUnknownSuffixesAndOverflow) {
  for (const char* bad : {"", "M", "-1", "+5", "1.5G", "1 G", "12X", "1e9", "nan",
                          "9223372036854775809", "8589934593G", "99999999999999999999"}) {
    EXPECT_FALSE(parse_byte_size(bad).has_value()) << bad;
  }
  EXPECT_EQ(parse_byte_size("9223372036854775808"), 1ull << 63);
}

TEST(ByteSize, FormatsInTheLargestUnitAtOrAboveOne) {
  EXPECT_EQ(format_byte_size(0), "0 B");
  EXPECT_EQ(format_byte_size(1023), "1023 B");
  EXPECT_EQ(format_byte_size(1536), "1.5 KiB");
  EXPECT_EQ(format_byte_size(12ull << 30), "12.0 GiB");
  EXPECT_EQ(format_byte_size(3ull << 40), "3.0 TiB");
}

TEST(ByteSize, PhysicalMemoryIsKnownOnLinux) {
  EXPECT_GT(physical_memory_bytes(), 1ull << 26);
}

}  // namespace
}  // namespace inferperf::core
