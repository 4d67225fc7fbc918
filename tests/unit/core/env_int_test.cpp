// Whole numbers from the environment: unset and empty are the same, anything but a base-10 integer
// inside the range is invalid (never a partial parse).
#include "core/env_int.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace inferperf::core {
namespace {

constexpr const char* kName = "INFERPERF_ENV_INT_TEST";

EnvInt with(const char* value, std::int64_t min = 0, std::int64_t max = 1000) {
  if (value) {
    setenv(kName, value, 1);
  } else {
    unsetenv(kName);
  }
  const EnvInt r = env_int(kName, min, max);
  unsetenv(kName);
  return r;
}

TEST(EnvInt, UnsetAndEmptyAreUnset) {
  EXPECT_EQ(with(nullptr).state, EnvInt::State::kUnset);
  EXPECT_EQ(with("").state, EnvInt::State::kUnset);
  EXPECT_FALSE(with("").valid());
}

TEST(EnvInt, AnIntegerInRangeIsItsValue) {
  EXPECT_TRUE(with("0").valid());
  EXPECT_EQ(with("1000").value, 1000);
  EXPECT_EQ(with("-5", -10, 10).value, -5);
}

TEST(EnvInt, AnythingElseIsInvalid) {
  for (const char* bad : {"12x", "1.5", " ", "abc", "1001", "-1", "99999999999999999999999"}) {
    EXPECT_EQ(with(bad).state, EnvInt::State::kInvalid) << bad;
  }
}

}  // namespace
}  // namespace inferperf::core
