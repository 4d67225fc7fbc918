#include "ui/live_stats.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace inferperf::ui {
namespace {

constexpr core::MonoNs kMs = 1'000'000;
constexpr core::MonoNs kSec = 1'000'000'000;

// A streamed reply: started at `start`, first token after `ttft`, then `events - 1` more events
// `itl` apart.
records::RequestRecord reply(core::MonoNs start, core::MonoNs ttft, core::MonoNs itl, int events,
                             records::Phase phase = records::Phase::kProfiling) {
  records::RequestRecord r;
  r.phase = phase;
  r.intended_ns = start - 2 * kMs;
  r.start_ns = start;
  for (int i = 0; i < events; ++i) {
    records::ContentEvent e;
    e.ts_ns = start + ttft + i * itl;
    e.content = "x";
    r.content_events.push_back(e);
  }
  r.end_ns = r.content_events.back().ts_ns;
  return r;
}

records::RequestRecord failure(const std::string& type) {
  records::RequestRecord r;
  r.start_ns = 5 * kSec;
  r.error = records::ErrorInfo{500, inferperf::core::RequestErrorType::from_name(type), "boom"};
  return r;
}

TEST(LiveStats, CountsCompletedAndErrorsAsTheReportDoes) {
  LiveStats s(0);
  s.add(reply(1 * kSec, 10 * kMs, 2 * kMs, 5));
  s.add(reply(1 * kSec, 10 * kMs, 2 * kMs, 5));
  s.add(failure("ServerError"));
  s.add(failure("ServerError"));
  s.add(failure("TimeoutError"));
  records::RequestRecord empty;  // no error, no content: an error in the report too
  empty.start_ns = kSec;
  s.add(empty);
  const auto c = s.counts(records::Phase::kProfiling);
  EXPECT_EQ(c.completed, 2);
  EXPECT_EQ(c.errors, 4);
  EXPECT_EQ(c.output_tokens, 10);  // one per content event without server usage
  const auto by_type = s.errors_by_type();
  ASSERT_EQ(by_type.size(), 3u);
  EXPECT_EQ(by_type[0], (std::pair<std::string, std::int64_t>{"ServerError", 2}));
  EXPECT_EQ(s.counts(records::Phase::kWarmup).completed, 0);
}

TEST(LiveStats, PhasesAreCountedApart) {
  LiveStats s(0);
  s.add(reply(kSec, kMs, kMs, 2, records::Phase::kWarmup));
  s.add(reply(kSec, kMs, kMs, 2));
  s.add(reply(kSec, kMs, kMs, 2));
  EXPECT_EQ(s.counts(records::Phase::kWarmup).completed, 1);
  EXPECT_EQ(s.counts(records::Phase::kProfiling).completed, 2);
  EXPECT_EQ(s.ttft_ms(records::Phase::kWarmup).count, 1u);
  EXPECT_EQ(s.ttft_ms(records::Phase::kProfiling).count, 2u);
}

TEST(LiveStats, PercentilesAreWithinTheHistogramsResolution) {
  LiveStats s(0);
  // TTFT 1..100 ms, ITL 3 ms, 11 events each.
  for (int i = 1; i <= 100; ++i) s.add(reply(kSec, i * kMs, 3 * kMs, 11));
  const Percentiles ttft = s.ttft_ms(records::Phase::kProfiling);
  EXPECT_EQ(ttft.count, 100u);
  EXPECT_NEAR(ttft.p50, 50.0, 50.0 * 0.04);
  EXPECT_NEAR(ttft.p90, 90.0, 90.0 * 0.04);
  EXPECT_NEAR(ttft.p99, 99.0, 99.0 * 0.04);
  const Percentiles itl = s.itl_ms(records::Phase::kProfiling);
  EXPECT_NEAR(itl.p50, 3.0, 3.0 * 0.04);
  EXPECT_NEAR(itl.p99, 3.0, 3.0 * 0.04);
  // Latency = TTFT + 10 ITL.
  const Percentiles lat = s.latency_ms(records::Phase::kProfiling);
  EXPECT_NEAR(lat.p50, 80.0, 80.0 * 0.04);
  EXPECT_NEAR(s.schedule_lag_p99_ms(records::Phase::kProfiling), 2.0, 2.0 * 0.04);
  EXPECT_EQ(s.counts(records::Phase::kProfiling).output_tokens, 1100);
}

TEST(LiveStats, ServerUsageCountsOutputTokensWhenSent) {
  LiveStats s(0);
  auto r = reply(kSec, kMs, kMs, 3);
  r.usage.completion_tokens = 42;
  s.add(r);
  EXPECT_EQ(s.counts(records::Phase::kProfiling).output_tokens, 42);
}

TEST(LiveStats, ThroughputHistoryHasOneValuePerWholeSecond) {
  LiveStats s(10 * kSec);
  // Ends at origin + 0.5 s (x3), + 1.5 s (x1), + 3.2 s (x2); nothing in second 2.
  for (int i = 0; i < 3; ++i) s.add(reply(10 * kSec + 400 * kMs, 50 * kMs, kMs, 1));
  s.add(reply(11 * kSec + 400 * kMs, 100 * kMs, kMs, 1));
  for (int i = 0; i < 2; ++i) s.add(reply(13 * kSec, 200 * kMs, kMs, 1));
  // At origin + 4.1 s: seconds 0..3 are complete.
  EXPECT_EQ(s.throughput_history(14 * kSec + 100 * kMs, 10), (std::vector<double>{3, 1, 0, 2}));
  EXPECT_EQ(s.throughput_history(14 * kSec + 100 * kMs, 2), (std::vector<double>{0, 2}));
  // A record older than the ring's lap does not land in a newer second's slot.
  LiveStats ring(0);
  ring.add(reply((LiveStats::kHistorySeconds + 1) * kSec, kMs, kMs, 1));
  ring.add(reply(1 * kSec, kMs, kMs, 1));
  const auto h = ring.throughput_history((LiveStats::kHistorySeconds + 2) * kSec, 1);
  EXPECT_EQ(h, (std::vector<double>{1}));
}

TEST(LiveStats, SnapshotsWhileTheCollectorWrites) {
  LiveStats s(0);
  std::thread writer([&] {
    for (int i = 0; i < 20000; ++i) s.add(reply(kSec, kMs, kMs, 2));
  });
  std::int64_t last = 0;
  for (int i = 0; i < 200; ++i) {
    const auto c = s.counts(records::Phase::kProfiling).completed;
    EXPECT_GE(c, last);  // never goes back
    last = c;
    (void)s.ttft_ms(records::Phase::kProfiling);
  }
  writer.join();
  EXPECT_EQ(s.counts(records::Phase::kProfiling).completed, 20000);
  EXPECT_EQ(s.ttft_ms(records::Phase::kProfiling).count, 20000u);
}

}  // namespace
}  // namespace inferperf::ui
