// The streaming half of the metrics: MetricColumn keeps values exactly in fewer bytes, and
// MetricsAccumulator gives, one record at a time, what the whole-vector pass gives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/statistics.hpp"
#include "metrics/compute.hpp"
#include "metrics/timeslice.hpp"

namespace inferperf::metrics {
namespace {

constexpr std::int64_t kAccT0 = 5'000'000'000'000;
constexpr std::int64_t kAccMs = 1'000'000;

TEST(MetricColumn, KeepsFloatsWhileExactThenWidensWithoutLosingAValue) {
  MetricColumn c;
  c.reserve(8);
  c.push(64.0);
  c.push(1'234'567.0);  // ns below 2^24: exact as a float
  c.push(-0.0);
  EXPECT_EQ(c.values(), (std::vector<double>{64.0, 1'234'567.0, -0.0}));
  EXPECT_TRUE(std::signbit(c.values()[2]));
  c.push(0.1);            // no float equals 0.1: the column becomes doubles
  c.push(123'456'789.0);  // above 2^24, odd: not a float either
  const auto v = c.values();
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0], 64.0);
  EXPECT_EQ(v[1], 1'234'567.0);
  EXPECT_TRUE(std::signbit(v[2]));
  EXPECT_EQ(v[3], 0.1);
  EXPECT_EQ(v[4], 123'456'789.0);
  c.push(std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(std::isnan(c.values()[5]));
  c.clear();
  EXPECT_TRUE(c.empty());
}

TEST(MetricColumn, SpilledRunsComeBackInOrderInEitherWidth) {
  auto scratch = std::make_shared<ColumnScratch>();
  MetricColumn c, other;
  std::vector<double> expected;
  auto push = [&](double x) {
    c.push(x);
    expected.push_back(x);
  };
  for (int i = 0; i < 100'000; ++i) push(i);  // floats, more than one read-back chunk
  other.push(1.5);
  ASSERT_TRUE(other.spill(scratch));  // the two columns' runs interleave in the shared file
  ASSERT_TRUE(c.spill(scratch));
  EXPECT_EQ(c.held_values(), 0u);
  EXPECT_EQ(c.size(), 100'000u);
  push(-0.0);
  push(0.1);  // widens the values held since the spill, not the spilled run
  other.push(2.5);
  ASSERT_TRUE(other.spill(scratch));
  ASSERT_TRUE(c.spill(scratch));
  ASSERT_TRUE(c.spill(scratch)) << "nothing held: nothing to write";
  push(7.0);  // held, not spilled
  const std::vector<double> back = c.values();
  ASSERT_EQ(back.size(), expected.size());
  EXPECT_EQ(back, expected);
  EXPECT_TRUE(std::signbit(back[100'000]));
  double sum = 0;
  for (double x : expected) sum += x;
  EXPECT_EQ(c.sum(), sum);
  EXPECT_EQ(other.values(), (std::vector<double>{1.5, 2.5}));

  MetricColumn moved(std::move(c));
  EXPECT_EQ(moved.values(), expected) << "the runs move with the column";
  moved.clear();
  EXPECT_TRUE(moved.empty());
}

// A scratch file that cannot be made (its folder does not exist): the values stay in memory.
TEST(MetricColumn, AFailedSpillKeepsEveryValue) {
  auto scratch = std::make_shared<ColumnScratch>("/nonexistent-inferperf-folder");
  MetricColumn c;
  c.push(1.0);
  c.push(0.1);
  EXPECT_FALSE(c.spill(scratch));
  EXPECT_EQ(c.held_values(), 2u);
  c.push(3.0);
  EXPECT_EQ(c.values(), (std::vector<double>{1.0, 0.1, 3.0}));
  EXPECT_EQ(c.sum(), 1.0 + 0.1 + 3.0);
}

records::RequestRecord timed(std::int64_t n, std::int64_t latency_ns) {
  records::RequestRecord r;
  r.credit_num = n;
  r.start_ns = kAccT0 + n * kAccMs;
  r.events = 2;
  r.content_events = {records::ContentEvent{r.start_ns + latency_ns, 0, "x", ""}};
  r.usage.prompt_tokens = 10 + n;
  r.usage.completion_tokens = 4;
  r.client_tokens.input = 9 + n;
  r.client_tokens.output = 5;
  r.requested_osl = 4;
  return r;
}

TEST(MetricsAccumulator, StatisticsAreThoseOfEveryValueExactly) {
  MetricOptions o;
  o.token_source = TokenSource::kClientTokenizer;
  MetricsAccumulator acc(o);
  acc.reserve(4);
  acc.keep_base_values({find_metric("request_latency")});
  // Latencies 1.5 ms (a float), 0.1 ms + 1 ns and 7 ms + 3 ns: the column widens mid-way.
  const std::vector<std::int64_t> lat = {1'500'000, 100'001, 7'000'003};
  std::vector<double> expected_ms;
  for (std::size_t i = 0; i < lat.size(); ++i) {
    const records::RequestRecord r = timed(static_cast<std::int64_t>(i), lat[i]);
    const RecordValues* rv = acc.add(r);
    ASSERT_NE(rv, nullptr);
    EXPECT_EQ(rv->record, &r);
    expected_ms.push_back(static_cast<double>(lat[i]) / 1e6);
  }
  records::RequestRecord warmup = timed(9, 1);
  warmup.phase = records::Phase::kWarmup;
  EXPECT_EQ(acc.add(warmup), nullptr) << "warmup records are left out";
  records::RequestRecord failed = timed(3, 0);
  failed.content_events.clear();
  failed.error = records::ErrorInfo{500, core::RequestErrorType{}, "boom"};
  ASSERT_NE(acc.add(failed), nullptr);

  const BenchmarkResult r = acc.finish();
  EXPECT_TRUE(r.per_record.empty());
  EXPECT_EQ(r.valid_count, 3);
  EXPECT_EQ(r.error_count, 1);
  EXPECT_EQ(r.profiling_requests, 4);
  EXPECT_EQ(r.profiling_events, 8);
  const MetricResult* latency = r.find("request_latency");
  ASSERT_NE(latency, nullptr);
  const core::Stats want = core::compute_stats(expected_ms);
  EXPECT_EQ(latency->stats.count, 3);
  EXPECT_EQ(latency->stats.avg, want.avg);
  EXPECT_EQ(latency->stats.p, want.p);
  EXPECT_EQ(latency->stats.std, want.std);
  ASSERT_EQ(r.base_values.size(), 1u);
  EXPECT_EQ(r.base_values[0].second, (std::vector<double>{1'500'000, 100'001, 7'000'003}));
  // Token facts of the three valid records only (the error has none), in order.
  ASSERT_EQ(r.token_facts.size(), 3u);
  EXPECT_EQ(r.token_facts[1].usage_prompt, 11);
  EXPECT_EQ(r.token_facts[1].client_input, 10);
  EXPECT_EQ(r.token_facts[1].client_output, 5);
  EXPECT_EQ(r.token_facts[1].requested_osl, 4);
  // Client count 5 against 4 asked (tolerance min(0.2, 50) tokens): longer; the server's 4 is
  // as asked, so only by the client's count.
  EXPECT_EQ(r.osl_split.longer, 3);
  EXPECT_EQ(r.osl_split.longer_retokenized, 3);
  EXPECT_EQ(r.osl_split.shorter, 0);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "boom");
}

TEST(MetricsAccumulator, MatchesTheWholeVectorPass) {
  std::vector<records::RequestRecord> recs;
  for (int i = 0; i < 40; ++i) recs.push_back(timed(i, 1'000'000 + 37 * i * i));
  MetricOptions o;
  MetricsAccumulator acc(o);
  for (const auto& r : recs) acc.add(r);
  const BenchmarkResult streamed = acc.finish();
  const BenchmarkResult whole = compute_metrics(recs, o);
  ASSERT_EQ(streamed.metrics.size(), whole.metrics.size());
  for (std::size_t i = 0; i < whole.metrics.size(); ++i) {
    EXPECT_EQ(streamed.metrics[i].info, whole.metrics[i].info);
    EXPECT_EQ(streamed.metrics[i].value, whole.metrics[i].value);
    EXPECT_EQ(streamed.metrics[i].stats.p, whole.metrics[i].stats.p);
    EXPECT_EQ(streamed.metrics[i].stats.sum, whole.metrics[i].stats.sum);
  }
  EXPECT_EQ(whole.per_record.size(), 40u);
  EXPECT_TRUE(streamed.token_facts.empty()) << "server counts: no token facts are kept";
}

// Spilling every column after every record (a zero budget) changes no statistic, sum or aggregate.
TEST(MetricsAccumulator, SpilledColumnsGiveTheSameResultsBitForBit) {
  std::vector<records::RequestRecord> recs;
  for (int i = 0; i < 300; ++i)
    recs.push_back(timed(i, 1'000'000 + 37 * i * i + (i % 3 == 0 ? 20'000'001 : 0)));
  MetricOptions o;
  o.token_source = TokenSource::kClientTokenizer;
  MetricsAccumulator in_memory(o);
  in_memory.set_memory_budget(std::size_t{1} << 30);
  MetricsAccumulator spilled(o);
  spilled.set_memory_budget(0);
  for (const auto& r : recs) {
    in_memory.add(r);
    spilled.add(r);
  }
  EXPECT_EQ(in_memory.spilled_values(), 0u);
  EXPECT_FALSE(spilled.spill_failed());
  const BenchmarkResult a = in_memory.finish();
  const BenchmarkResult b = spilled.finish();
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  std::int64_t values = 0;
  for (const auto& m : b.metrics) values += m.scalar ? 0 : m.stats.count;
  EXPECT_EQ(spilled.spilled_values(), static_cast<std::size_t>(values)) << "every value spilled";
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    EXPECT_EQ(a.metrics[i].info, b.metrics[i].info);
    EXPECT_EQ(a.metrics[i].value, b.metrics[i].value) << a.metrics[i].info->tag;
    EXPECT_EQ(a.metrics[i].stats.count, b.metrics[i].stats.count) << a.metrics[i].info->tag;
    EXPECT_EQ(a.metrics[i].stats.p, b.metrics[i].stats.p) << a.metrics[i].info->tag;
    EXPECT_EQ(a.metrics[i].stats.sum, b.metrics[i].stats.sum) << a.metrics[i].info->tag;
    EXPECT_EQ(a.metrics[i].stats.std, b.metrics[i].stats.std) << a.metrics[i].info->tag;
  }
}

// Past the read-back limit a column's statistics come from a selection over its scratch file:
// the same count, extremes and percentiles to the bit, sums to the last bits.
TEST(MetricsAccumulator, ColumnsPastTheReadBackLimitGiveTheSamePercentiles) {
  std::vector<records::RequestRecord> recs;
  for (int i = 0; i < 300; ++i)
    recs.push_back(timed(i, 1'000'000 + 37 * i * i + (i % 3 == 0 ? 20'000'001 : 0)));
  MetricsAccumulator whole(MetricOptions{});
  MetricsAccumulator selected(MetricOptions{});
  selected.set_memory_budget(0);
  selected.set_read_back_limit(0);
  for (const auto& r : recs) {
    whole.add(r);
    selected.add(r);
  }
  const BenchmarkResult a = whole.finish();
  const BenchmarkResult b = selected.finish();
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    const auto& x = a.metrics[i].stats;
    const auto& y = b.metrics[i].stats;
    const std::string tag(a.metrics[i].info->tag);
    EXPECT_EQ(a.metrics[i].value, b.metrics[i].value) << tag;
    EXPECT_EQ(x.count, y.count) << tag;
    EXPECT_EQ(x.min, y.min) << tag;
    EXPECT_EQ(x.max, y.max) << tag;
    EXPECT_EQ(x.p, y.p) << tag;
    EXPECT_NEAR(x.avg, y.avg, 1e-12 * std::abs(x.avg)) << tag;
    EXPECT_NEAR(x.std, y.std, 1e-9 * std::abs(x.std) + 1e-12) << tag;
  }
}

// A spill that fails (a full disk) stops the spilling; every value is still counted once.
TEST(MetricsAccumulator, AFailedSpillLosesNothing) {
  std::vector<records::RequestRecord> recs;
  for (int i = 0; i < 100; ++i) recs.push_back(timed(i, 2'000'000 + 13 * i));
  MetricsAccumulator reference(MetricOptions{});
  MetricsAccumulator failing(MetricOptions{});
  failing.set_memory_budget(std::size_t{1} << 30);
  for (int i = 0; i < 100; ++i) {
    reference.add(recs[i]);
    failing.add(recs[i]);
    if (i == 49) {
      EXPECT_FALSE(failing.spill_all(std::make_shared<ColumnScratch>("/nonexistent-inferperf")));
    }
  }
  EXPECT_TRUE(failing.spill_failed());
  EXPECT_EQ(failing.spilled_values(), 0u);
  const BenchmarkResult a = reference.finish();
  const BenchmarkResult b = failing.finish();
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    EXPECT_EQ(a.metrics[i].stats.count, b.metrics[i].stats.count) << a.metrics[i].info->tag;
    EXPECT_EQ(a.metrics[i].stats.p, b.metrics[i].stats.p) << a.metrics[i].info->tag;
    EXPECT_EQ(a.metrics[i].value, b.metrics[i].value) << a.metrics[i].info->tag;
  }
}

// Timeslices spill together past their shared budget and report the same slices.
TEST(TimesliceAccumulator, SpilledSlicesGiveTheSameResults) {
  std::vector<records::RequestRecord> recs;
  for (int i = 0; i < 200; ++i) recs.push_back(timed(i, 1'000'000 + 41 * i * i));
  const core::WallAnchor anchor{0, 0};
  TimesliceAccumulator in_memory(0.02, anchor, MetricOptions{});
  in_memory.set_memory_budget(std::size_t{1} << 30);
  TimesliceAccumulator spilled(0.02, anchor, MetricOptions{});
  spilled.set_memory_budget(0);
  for (const auto& r : recs) {
    in_memory.add(r);
    spilled.add(r);
  }
  EXPECT_EQ(in_memory.spilled_values(), 0u);
  EXPECT_GT(spilled.spilled_values(), 0u);
  const auto a = in_memory.finish();
  const auto b = spilled.finish();
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 5u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].result.metrics.size(), b[i].result.metrics.size());
    for (std::size_t k = 0; k < a[i].result.metrics.size(); ++k) {
      EXPECT_EQ(a[i].result.metrics[k].stats.p, b[i].result.metrics[k].stats.p);
      EXPECT_EQ(a[i].result.metrics[k].stats.sum, b[i].result.metrics[k].stats.sum);
      EXPECT_EQ(a[i].result.metrics[k].value, b[i].result.metrics[k].value);
    }
  }
}

}  // namespace
}  // namespace inferperf::metrics
