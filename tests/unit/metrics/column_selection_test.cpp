// Columns too large to read back whole: their percentiles come from a selection over passes
// through the column, and must be exactly those of the sorted values.
#include "metrics/column_selection.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/statistics.hpp"

namespace inferperf::metrics {
namespace {

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The selection against core::compute_stats over the same values, with `collect_limit` values
// gathered at most (a small limit makes every rank narrow down to its full 64-bit key).
// `sums`: compare the sums too (not where cancellation makes them depend on the order).
void expect_as_sorted(const std::vector<double>& raw, double scale, std::size_t collect_limit,
                      const std::string& what, bool sums = true) {
  auto scratch = std::make_shared<ColumnScratch>();
  MetricColumn column;
  std::vector<double> scaled;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    column.push(raw[i]);
    scaled.push_back(raw[i] / scale);
    if (i % 1000 == 999) {
      ASSERT_TRUE(column.spill(scratch));  // runs on disk and values held
    }
  }
  const core::Stats want = core::compute_stats(scaled);
  const core::Stats got = column_stats_by_selection(column, scale, collect_limit);
  EXPECT_EQ(got.count, want.count) << what;
  EXPECT_TRUE(same_bits(got.min, want.min)) << what << ": " << got.min << " vs " << want.min;
  EXPECT_TRUE(same_bits(got.max, want.max)) << what << ": " << got.max << " vs " << want.max;
  for (std::size_t i = 0; i < want.p.size(); ++i) {
    EXPECT_TRUE(same_bits(got.p[i], want.p[i]))
        << what << ": p" << core::kPercentiles[i] << " " << got.p[i] << " vs " << want.p[i];
  }
  if (!sums) return;
  // Summed in record order, not sorted order: equal to the last bits only (or both infinite).
  auto near = [&](double g, double w, double relative, const char* name) {
    if (!std::isfinite(w)) {
      EXPECT_EQ(g, w) << what << ": " << name;
    } else {
      EXPECT_NEAR(g, w, relative * std::max(1.0, std::abs(w))) << what << ": " << name;
    }
  };
  near(got.sum, want.sum, 1e-12, "sum");
  near(got.avg, want.avg, 1e-12, "avg");
  near(got.std, want.std, 1e-9, "std");
}

TEST(ColumnSelection, PercentilesAreThoseOfTheSortedValuesBitForBit) {
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> latency(15.0, 0.6);  // ns, around 3 ms
  std::uniform_int_distribution<int> tokens(1, 400);
  std::normal_distribution<double> signed_values(0.0, 1e-3);
  std::vector<double> ns, counts, narrow, signed_, ties;
  for (int i = 0; i < 20'011; ++i) {
    ns.push_back(std::round(latency(rng)));
    counts.push_back(tokens(rng));
    narrow.push_back(1.0 +
                     std::ldexp(static_cast<double>(i % 97), -52));  // differ in the last bits
    signed_.push_back(i % 5 == 0 ? 0.0 : signed_values(rng));
    ties.push_back(i % 3 == 0 ? 7.0 : 3.0);
  }
  for (std::size_t limit : {std::size_t{0}, std::size_t{500}, std::size_t{1} << 20}) {
    const std::string at = " (collect limit " + std::to_string(limit) + ")";
    expect_as_sorted(ns, 1e6, limit, "latencies in ms" + at);
    expect_as_sorted(counts, 1.0, limit, "token counts" + at);
    expect_as_sorted(narrow, 1.0, limit, "values one ulp apart" + at);
    expect_as_sorted(signed_, 1.0, limit, "negative, zero and positive" + at);
    expect_as_sorted(ties, 1.0, limit, "two values" + at);
  }
}

TEST(ColumnSelection, SmallColumnsAndExtremes) {
  expect_as_sorted({42.0}, 1.0, 0, "one value");
  expect_as_sorted({5.0, -1.0}, 1.0, 0, "two values");
  const double big = std::numeric_limits<double>::max();
  expect_as_sorted({big, -big, 0.0, std::numeric_limits<double>::denorm_min(), 1e-300, 2.5}, 1.0, 0,
                   "the ends of double", false);
  const core::Stats none = column_stats_by_selection(MetricColumn{}, 1.0, 0);
  EXPECT_EQ(none.count, 0);
}

}  // namespace
}  // namespace inferperf::metrics
