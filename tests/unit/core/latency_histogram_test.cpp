#include "core/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace inferperf::core {
namespace {

TEST(LatencyHistogram, SmallValuesHaveTheirOwnBuckets) {
  for (std::int64_t v = 0; v < 64; ++v) {
    EXPECT_EQ(LatencyHistogram::bucket_of(v), v);
    EXPECT_EQ(LatencyHistogram::upper_bound_of(static_cast<int>(v)), v);
  }
}

TEST(LatencyHistogram, EveryValueLiesWithinItsBucketAndBucketsAreContiguous) {
  std::int64_t previous_upper = -1;
  for (int b = 0; b < 1500; ++b) {
    const std::int64_t upper = LatencyHistogram::upper_bound_of(b);
    const std::int64_t lower = previous_upper + 1;
    ASSERT_LE(lower, upper) << "bucket " << b;
    EXPECT_EQ(LatencyHistogram::bucket_of(lower), b);
    EXPECT_EQ(LatencyHistogram::bucket_of(upper), b);
    // Relative width stays within 1/32 of the value (about 3 %).
    if (lower >= 64) {
      EXPECT_LE(static_cast<double>(upper - lower + 1) / static_cast<double>(lower),
                1.0 / 32 + 1e-12);
    }
    previous_upper = upper;
  }
  EXPECT_EQ(LatencyHistogram::bucket_of(-5), 0);
  EXPECT_LT(LatencyHistogram::bucket_of(INT64_MAX), LatencyHistogram::kBuckets);
}

TEST(LatencyHistogram, PercentilesAreTheUpperBoundOfTheBucketHoldingTheRank) {
  LatencyHistogram h;
  // 990 values at 100 us, 10 at 5 ms: p50 near 100 us, p99 still 100 us, p99.5 and max 5 ms.
  for (int i = 0; i < 990; ++i) h.record(100'000);
  for (int i = 0; i < 10; ++i) h.record(5'000'000);
  const HistogramSnapshot s = h.snapshot();
  EXPECT_EQ(s.total, 1000u);
  EXPECT_EQ(s.max_ns, 5'000'000);
  EXPECT_GE(s.percentile_ns(50), 100'000);
  EXPECT_LE(s.percentile_ns(50), 100'000 * 33 / 32);
  EXPECT_LE(s.percentile_ns(99), 100'000 * 33 / 32);
  EXPECT_EQ(s.percentile_ns(99.5), 5'000'000);  // capped at the exact max
  EXPECT_EQ(s.percentile_ns(100), 5'000'000);
  EXPECT_EQ(HistogramSnapshot{}.percentile_ns(99), 0);
}

TEST(LatencyHistogram, SnapshotDifferencesGiveAWindow) {
  LatencyHistogram h;
  for (int i = 0; i < 100; ++i) h.record(2'000'000);  // before the window: 2 ms
  const HistogramSnapshot before = h.snapshot();
  for (int i = 0; i < 50; ++i) h.record(10'000);  // in the window: 10 us
  const HistogramSnapshot window = h.snapshot().since(before);
  EXPECT_EQ(window.total, 50u);
  EXPECT_LE(window.percentile_ns(99), 10'000 * 33 / 32);
  EXPECT_GE(window.percentile_ns(99), 10'000);
}

TEST(LatencyHistogram, ReadableWhileAnotherThreadRecords) {
  LatencyHistogram h;
  std::thread writer([&] {
    for (int i = 0; i < 200'000; ++i) h.record(i % 1000);
  });
  std::uint64_t last = 0;
  for (int i = 0; i < 100; ++i) {
    const auto s = h.snapshot();
    EXPECT_GE(s.total + 1000, last);  // totals only grow (bucket loads are not one snapshot)
    last = s.total;
  }
  writer.join();
  EXPECT_EQ(h.snapshot().total, 200'000u);
}

}  // namespace
}  // namespace inferperf::core
