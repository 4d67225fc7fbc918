// Timeslice bucketing and per-slice metrics on hand-built records with a fixed wall anchor.
#include "metrics/timeslice.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace {

using inferperf::core::WallAnchor;
using inferperf::metrics::BenchmarkResult;
using inferperf::metrics::compute_timeslices;
using inferperf::metrics::group_by_timeslice;
using inferperf::metrics::MetricOptions;
using inferperf::records::ContentEvent;
using inferperf::records::ErrorInfo;
using inferperf::records::Phase;
using inferperf::records::RequestRecord;

constexpr std::int64_t kSliceT0 = 1'000'000'000'000;  // monotonic origin (1000 s)
// Wall clock at kSliceT0: exactly 1,700,000,000 s since the epoch, so slice k below is the epoch
// slice 1,700,000,000 + k of 1 s.
constexpr std::int64_t kW0 = 1'700'000'000'000'000'000;
const WallAnchor kAnchor{kSliceT0, kW0};

// A request starting `start_s` wall seconds after kW0, whose only content event is at `end_s`.
RequestRecord record(std::int64_t credit, double start_s, double end_s) {
  RequestRecord r;
  r.credit_num = credit;
  r.start_ns = kSliceT0 + static_cast<std::int64_t>(start_s * 1e9);
  r.content_events = {ContentEvent{kSliceT0 + static_cast<std::int64_t>(end_s * 1e9), 0, "x", ""}};
  return r;
}

RequestRecord error_record(std::int64_t credit, double start_s) {
  RequestRecord r;
  r.credit_num = credit;
  r.start_ns = kSliceT0 + static_cast<std::int64_t>(start_s * 1e9);
  r.error = ErrorInfo{500, inferperf::core::RequestErrorKind::kHttp, "boom"};
  return r;
}

// Epoch slices of 1 s: [0,1) holds 0 (0.30-0.40) and 1 (0.90-1.15, ends in the next slice);
// [1,2) holds 2 (1.10-1.30) and the error 3 (1.20); [2,3) holds only a warmup record, so it is
// empty; [3,4) holds 4 (3.40-3.50). A run-aligned slicing from 0.25 s would put 1 and 2 together.
std::vector<RequestRecord> records() {
  RequestRecord warmup = record(99, 2.5, 2.6);
  warmup.phase = Phase::kWarmup;
  return {record(0, 0.30, 0.40), record(2, 1.10, 1.30), error_record(3, 1.20), warmup,
          record(1, 0.90, 1.15), record(4, 3.40, 3.50)};
}

std::vector<std::int64_t> credits(const std::vector<const RequestRecord*>& group) {
  std::vector<std::int64_t> out;
  for (const auto* r : group) out.push_back(r->credit_num);
  return out;
}

double scalar(const BenchmarkResult& r, const char* tag) {
  const auto* m = r.find(tag);
  EXPECT_NE(m, nullptr) << tag;
  return m ? m->value : -1;
}

TEST(Timeslices, RecordsGoToTheEpochAlignedSliceTheyStartedIn) {
  const auto rs = records();
  const auto groups = group_by_timeslice(rs, 1.0, kAnchor);
  ASSERT_EQ(groups.size(), 3u) << "the warmup-only slice vanishes";
  EXPECT_EQ(credits(groups[0]), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(credits(groups[1]), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(credits(groups[2]), (std::vector<std::int64_t>{4}));
}

TEST(Timeslices, SliceBoundariesDoNotDependOnTheRunStart) {
  // Moving the anchor's wall time 0.4 s later moves the epoch boundaries to -0.4, 0.6, 1.6, ...
  // in record time: [-0.4,0.6) holds 0, [0.6,1.6) holds 1 2 3, [2.6,3.6) holds 4.
  const auto rs = records();
  const WallAnchor shifted{kSliceT0, kW0 + 400'000'000};
  const auto groups = group_by_timeslice(rs, 1.0, shifted);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(credits(groups[0]), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(credits(groups[1]), (std::vector<std::int64_t>{2, 3, 1}));
  EXPECT_EQ(credits(groups[2]), (std::vector<std::int64_t>{4}));
}

TEST(Timeslices, FractionalSliceLength) {
  // 0.5 s slices: 0.30 | 0.90 | 1.10 1.20 | 3.40 -> four non-empty slices out of seven.
  const auto rs = records();
  const auto groups = group_by_timeslice(rs, 0.5, kAnchor);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(credits(groups[0]), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(credits(groups[1]), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(credits(groups[2]), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(credits(groups[3]), (std::vector<std::int64_t>{4}));
}

TEST(Timeslices, EverySliceIsItsOwnBenchmark) {
  const auto rs = records();
  const auto slices = compute_timeslices(rs, 1.0, kAnchor, MetricOptions{});
  ASSERT_EQ(slices.size(), 3u);
  for (std::size_t i = 0; i < slices.size(); ++i) EXPECT_EQ(slices[i].index, std::int64_t(i));

  // Slice 0: 2 requests from 0.30 to the last response at 1.15 -> 0.85 s, 2 / 0.85 req/s (not
  // divided by the slice length).
  const auto& s0 = slices[0].result;
  EXPECT_EQ(scalar(s0, "request_count"), 2);
  EXPECT_NEAR(scalar(s0, "benchmark_duration"), 0.85, 1e-6);
  EXPECT_NEAR(scalar(s0, "request_throughput"), 2 / 0.85, 1e-6);
  EXPECT_EQ(s0.find("error_request_count"), nullptr);
  ASSERT_NE(s0.find("request_latency"), nullptr);
  EXPECT_NEAR(s0.find("request_latency")->stats.avg, (100 + 250) / 2.0, 1e-4);

  // Slice 1: the valid request 1.10-1.30 (1 / 0.2 req/s) and the error, counted here.
  const auto& s1 = slices[1].result;
  EXPECT_EQ(scalar(s1, "request_count"), 1);
  EXPECT_EQ(scalar(s1, "error_request_count"), 1);
  EXPECT_NEAR(scalar(s1, "request_throughput"), 5.0, 1e-6);
  ASSERT_EQ(s1.errors.size(), 1u);
  EXPECT_EQ(s1.errors[0].message, "boom");

  // Slice 2 (epoch slice 3, renumbered): 1 request over 0.1 s.
  const auto& s2 = slices[2].result;
  EXPECT_EQ(scalar(s2, "request_count"), 1);
  EXPECT_NEAR(scalar(s2, "request_throughput"), 10.0, 1e-6);
}

TEST(Timeslices, ErrorOnlySliceHasOnlyTheErrorCount) {
  const std::vector<RequestRecord> rs = {record(0, 0.1, 0.2), error_record(1, 5.5)};
  const auto slices = compute_timeslices(rs, 1.0, kAnchor, MetricOptions{});
  ASSERT_EQ(slices.size(), 2u);
  const auto& s1 = slices[1].result;
  EXPECT_EQ(s1.valid_count, 0);
  ASSERT_EQ(s1.metrics.size(), 1u);
  EXPECT_EQ(s1.metrics[0].info->tag, "error_request_count");
  EXPECT_EQ(s1.metrics[0].value, 1);
}

TEST(Timeslices, NoProfilingRecordsGiveNoSlices) {
  EXPECT_TRUE(compute_timeslices({}, 1.0, kAnchor, MetricOptions{}).empty());
}

}  // namespace
