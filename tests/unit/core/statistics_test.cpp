// Statistics must equal numpy: np.percentile(x, q) (linear) and np.std(x) (ddof=0).
// Expected values were worked out by hand with pos = q/100*(n-1) and linear interpolation.
#include "core/statistics.hpp"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using inferperf::core::compute_stats;
using inferperf::core::percentile_linear;
using inferperf::core::Stats;

constexpr double kTol = 1e-9;

struct StatsCase {
  const char* name;
  std::vector<double> values;
  double avg, min, max, sum;
  std::int64_t count;
  double std;
  std::array<double, 9> p;  // p1 p5 p10 p25 p50 p75 p90 p95 p99
};

const std::vector<StatsCase> kCases = {
    {"one_to_four",
     {1, 2, 3, 4},
     2.5,
     1,
     4,
     10,
     4,
     1.118033988749895,
     {1.03, 1.15, 1.3, 1.75, 2.5, 3.25, 3.7, 3.85, 3.97}},
    {"five_values",
     {15, 20, 35, 40, 50},
     32.0,
     15,
     50,
     160,
     5,
     12.884098726725126,
     {15.2, 16.0, 17.0, 20.0, 35.0, 40.0, 46.0, 48.0, 49.6}},
    {"single", {7.5}, 7.5, 7.5, 7.5, 7.5, 1, 0.0, {7.5, 7.5, 7.5, 7.5, 7.5, 7.5, 7.5, 7.5, 7.5}},
    {"unsorted_duplicates",
     {5, 1, 3, 3, 9, 1, 7},
     4.142857142857143,
     1,
     9,
     29,
     7,
     2.799416848895061,
     {1.0, 1.0, 1.0, 2.0, 3.0, 6.0, 7.8, 8.4, 8.88}},
    {"ten_values",
     {100, 10, 90, 20, 80, 30, 70, 40, 60, 50},
     55.0,
     10,
     100,
     550,
     10,
     28.722813232690143,
     {10.9, 14.5, 19.0, 32.5, 55.0, 77.5, 91.0, 95.5, 99.1}},
    {"negative_and_fractional",
     {0.5, 2.25, -1.0, 8.0, 3.5, 3.5, 12.0, -4.5, 6.0, 1.0, 9.75},
     3.727272727272727,
     -4.5,
     12.0,
     41.0,
     11,
     4.654487748221828,
     {-4.15, -2.75, -1.0, 0.75, 3.5, 7.0, 9.75, 10.875, 11.775}},
};

class StatsTest : public ::testing::TestWithParam<StatsCase> {};

TEST_P(StatsTest, MatchesNumpy) {
  const auto& c = GetParam();
  const Stats s = compute_stats(c.values);
  EXPECT_EQ(s.count, c.count);
  EXPECT_NEAR(s.avg, c.avg, kTol);
  EXPECT_NEAR(s.min, c.min, kTol);
  EXPECT_NEAR(s.max, c.max, kTol);
  EXPECT_NEAR(s.sum, c.sum, kTol);
  EXPECT_NEAR(s.std, c.std, kTol);
  const std::array<int, 9> qs = {1, 5, 10, 25, 50, 75, 90, 95, 99};
  for (std::size_t i = 0; i < qs.size(); ++i) {
    EXPECT_NEAR(s.p[i], c.p[i], kTol) << "p" << qs[i];
    EXPECT_NEAR(s.percentile(qs[i]), c.p[i], kTol) << "percentile(" << qs[i] << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Arrays, StatsTest, ::testing::ValuesIn(kCases),
                         [](const auto& tpi) { return std::string(tpi.param.name); });

struct PercentileCase {
  std::vector<double> sorted;
  double q;
  double expected;
};

TEST(PercentileLinear, Table) {
  const std::vector<PercentileCase> table = {
      {{1, 2, 3, 4}, 0, 1.0},
      {{1, 2, 3, 4}, 100, 4.0},
      {{1, 2, 3, 4}, 37.5, 2.125},       // pos 1.125
      {{1, 2, 3, 4}, 50, 2.5},           // pos 1.5, takes the upper-side formula
      {{15, 20, 35, 40, 50}, 40, 29.0},  // pos 1.6
      {{15, 20, 35, 40, 50}, 99, 49.6},  // pos 3.96
      {{-3, -1}, 25, -2.5},
      {{2, 2, 2}, 73, 2.0},
      {{42}, 99, 42.0},
  };
  for (const auto& c : table) {
    EXPECT_NEAR(percentile_linear(c.sorted, c.q), c.expected, kTol) << "q=" << c.q;
  }
}

TEST(ComputeStats, EmptyInputHasCountZero) {
  const Stats s = compute_stats({});
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.sum, 0.0);
  EXPECT_EQ(s.avg, 0.0);
}

TEST(ComputeStats, UnsupportedPercentileThrows) {
  const Stats s = compute_stats({1, 2, 3});
  EXPECT_THROW((void)s.percentile(42), std::invalid_argument);
}

}  // namespace
