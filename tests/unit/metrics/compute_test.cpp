// compute_metrics on hand-built records. All expected values are worked out by hand in comments.
#include "metrics/compute.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using inferperf::metrics::BenchmarkResult;
using inferperf::metrics::compute_metrics;
using inferperf::metrics::MetricOptions;
using inferperf::metrics::MetricResult;
using inferperf::records::ContentEvent;
using inferperf::records::ErrorInfo;
using inferperf::records::Phase;
using inferperf::records::RequestRecord;

constexpr double kTol = 1e-9;
constexpr std::int64_t kT0 = 1'000'000'000'000;  // an arbitrary monotonic origin (1000 s)
constexpr std::int64_t kMs = 1'000'000;

ContentEvent content(std::int64_t ts, std::string text, std::string reasoning = "") {
  return ContentEvent{ts, 0, std::move(text), std::move(reasoning)};
}

// A: start T0, events at +50 +60 +80 +150 ms, prompt 100, completion 11.
//    TTFT 50, TTST 10, latency 150, ITL (150-50)/(11-1) = 10 ms, per-user 1e9/1e7 = 100 tok/s,
//    chunk gaps 10 20 70 ms.
RequestRecord record_a() {
  RequestRecord r;
  r.credit_num = 0;
  r.start_ns = kT0;
  r.content_events = {content(kT0 + 50 * kMs, "a"), content(kT0 + 60 * kMs, "b"),
                      content(kT0 + 80 * kMs, "c"), content(kT0 + 150 * kMs, "d")};
  r.usage.prompt_tokens = 100;
  r.usage.completion_tokens = 11;
  r.usage.total_tokens = 111;
  return r;
}

// B: start T0+100ms, events at +30 (reasoning only) +50 +200 ms, prompt 50, completion 21 of which
//    5 reasoning. OSL 21, TTFT 30, TTST 20, TTFOT 50, latency 200, ITL (200-30)/20 = 8.5 ms,
//    per-user 1e9/8.5e6 = 117.6470588235294, chunk gaps 20 150 ms.
RequestRecord record_b() {
  RequestRecord r;
  r.credit_num = 1;
  r.start_ns = kT0 + 100 * kMs;
  r.content_events = {content(kT0 + 130 * kMs, "", "think"), content(kT0 + 150 * kMs, "x"),
                      content(kT0 + 300 * kMs, "y")};
  r.usage.prompt_tokens = 50;
  r.usage.completion_tokens = 21;
  r.usage.reasoning_tokens = 5;
  return r;
}

RequestRecord error_record(std::optional<int> code, std::string type, std::string message,
                           std::int64_t start) {
  RequestRecord r;
  r.start_ns = start;
  r.error = ErrorInfo{code, inferperf::core::RequestErrorType::from_name(type), std::move(message)};
  return r;
}

// A warmup record far outside the profiling window: if it counted, duration and counts would
// change.
RequestRecord warmup_record() {
  RequestRecord r = record_a();
  r.phase = Phase::kWarmup;
  r.start_ns = 1;
  r.content_events = {content(kT0 + 9000 * kMs, "w")};
  return r;
}

std::vector<RequestRecord> mixed_records() {
  return {warmup_record(),
          record_a(),
          error_record(500, "HTTPError", "boom", kT0 + 10 * kMs),
          record_b(),
          error_record(std::nullopt, "ResponseParseError", "bad", kT0 + 20 * kMs),
          error_record(500, "HTTPError", "boom", kT0 + 30 * kMs)};
}

const MetricResult& get(const BenchmarkResult& r, std::string_view tag) {
  const MetricResult* m = r.find(tag);
  if (m == nullptr) {
    ADD_FAILURE() << "missing metric " << tag;
    static const MetricResult kEmpty{};
    return kEmpty;
  }
  return *m;
}

MetricOptions streaming() {
  MetricOptions o;
  o.streaming = true;
  return o;
}

TEST(ComputeMetrics, StreamingRecordMetrics) {
  const auto records = mixed_records();
  const BenchmarkResult r = compute_metrics(records, streaming());

  const auto& ttft = get(r, "time_to_first_token");
  EXPECT_FALSE(ttft.scalar);
  EXPECT_EQ(ttft.stats.count, 2);
  EXPECT_NEAR(ttft.stats.min, 30.0, kTol);
  EXPECT_NEAR(ttft.stats.max, 50.0, kTol);
  EXPECT_NEAR(ttft.stats.avg, 40.0, kTol);

  const auto& ttst = get(r, "time_to_second_token");
  EXPECT_NEAR(ttst.stats.min, 10.0, kTol);
  EXPECT_NEAR(ttst.stats.max, 20.0, kTol);

  // Every streaming record has one (AIPerf 0.11): A's is its TTFT (50, no reasoning), B's waits
  // for the first content after its reasoning (50, where its TTFT is 30).
  const auto& ttfot = get(r, "time_to_first_output_token");
  EXPECT_EQ(ttfot.stats.count, 2);
  EXPECT_NEAR(ttfot.stats.min, 50.0, kTol);
  EXPECT_NEAR(ttfot.stats.max, 50.0, kTol);

  const auto& lat = get(r, "request_latency");
  EXPECT_NEAR(lat.stats.min, 150.0, kTol);
  EXPECT_NEAR(lat.stats.max, 200.0, kTol);

  const auto& itl = get(r, "inter_token_latency");
  EXPECT_NEAR(itl.stats.min, 8.5, kTol);
  EXPECT_NEAR(itl.stats.max, 10.0, kTol);
  EXPECT_NEAR(itl.stats.avg, 9.25, kTol);

  const auto& per_user = get(r, "output_token_throughput_per_user");
  EXPECT_NEAR(per_user.stats.min, 100.0, kTol);
  EXPECT_NEAR(per_user.stats.max, 117.6470588235294, kTol);

  const auto& osl = get(r, "output_sequence_length");  // completion tokens, reasoning included
  EXPECT_NEAR(osl.stats.min, 11.0, kTol);
  EXPECT_NEAR(osl.stats.max, 21.0, kTol);
  EXPECT_NEAR(osl.stats.sum, 32.0, kTol);

  const auto& isl = get(r, "input_sequence_length");
  EXPECT_NEAR(isl.stats.min, 50.0, kTol);
  EXPECT_NEAR(isl.stats.max, 100.0, kTol);

  const auto& out_count = get(r, "output_token_count");  // 11 and 21 - 5
  EXPECT_NEAR(out_count.stats.sum, 27.0, kTol);
  const auto& reasoning = get(r, "reasoning_token_count");
  EXPECT_EQ(reasoning.stats.count, 1);
  EXPECT_NEAR(reasoning.stats.avg, 5.0, kTol);

  const auto& prefill = get(r, "prefill_throughput_per_user");  // 100/0.05 and 50/0.03
  EXPECT_NEAR(prefill.stats.min, 1666.6666666666667, 1e-6);
  EXPECT_NEAR(prefill.stats.max, 2000.0, 1e-6);
}

TEST(ComputeMetrics, InterChunkLatencyIsPooledAcrossRecords) {
  const BenchmarkResult r = compute_metrics(mixed_records(), streaming());
  // gaps: A 10 20 70, B 20 150 -> sorted 10 20 20 70 150
  const auto& icl = get(r, "inter_chunk_latency");
  EXPECT_EQ(icl.stats.count, 5);
  EXPECT_NEAR(icl.stats.sum, 270.0, kTol);
  EXPECT_NEAR(icl.stats.avg, 54.0, kTol);
  EXPECT_NEAR(icl.stats.min, 10.0, kTol);
  EXPECT_NEAR(icl.stats.max, 150.0, kTol);
  EXPECT_NEAR(icl.stats.percentile(50), 20.0, kTol);
  EXPECT_NEAR(icl.stats.percentile(90), 118.0, kTol);
  EXPECT_NEAR(icl.stats.std, 52.38320341483518, kTol);
}

TEST(ComputeMetrics, AggregatesAndDerivedValues) {
  const BenchmarkResult r = compute_metrics(mixed_records(), streaming());
  EXPECT_EQ(r.valid_count, 2);
  EXPECT_EQ(r.error_count, 3);
  EXPECT_EQ(r.per_record.size(), 5u);  // the warmup record is left out
  EXPECT_EQ(r.min_request_start_ns, kT0);
  EXPECT_EQ(r.max_response_end_ns, kT0 + 300 * kMs);

  const auto& count = get(r, "request_count");
  EXPECT_TRUE(count.scalar);
  EXPECT_NEAR(count.value, 2.0, kTol);
  EXPECT_NEAR(get(r, "error_request_count").value, 3.0, kTol);
  // last valid content event (T0+300ms) - first valid start (T0) = 0.3 s
  EXPECT_NEAR(get(r, "benchmark_duration").value, 0.3, kTol);
  EXPECT_NEAR(get(r, "request_throughput").value, 6.666666666666667, 1e-9);
  EXPECT_NEAR(get(r, "output_token_throughput").value, 106.66666666666667, 1e-9);  // 32 / 0.3
  EXPECT_NEAR(get(r, "total_token_throughput").value, 606.6666666666667, 1e-9);    // 182 / 0.3
  EXPECT_NEAR(get(r, "total_output_tokens").value, 27.0, kTol);
  EXPECT_NEAR(get(r, "total_reasoning_tokens").value, 5.0, kTol);
  EXPECT_NEAR(get(r, "total_osl").value, 32.0, kTol);
  EXPECT_NEAR(get(r, "total_isl").value, 150.0, kTol);
  EXPECT_EQ(r.find("osl_mismatch_count"), nullptr);  // no record asked for an OSL
}

TEST(ComputeMetrics, ErrorsAreGroupedAndSortedByCount) {
  const BenchmarkResult r = compute_metrics(mixed_records(), streaming());
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].code, 500);
  EXPECT_EQ(r.errors[0].type, "HTTPError");
  EXPECT_EQ(r.errors[0].message, "boom");
  EXPECT_EQ(r.errors[0].count, 2);
  EXPECT_FALSE(r.errors[1].code.has_value());
  EXPECT_EQ(r.errors[1].type, "ResponseParseError");
  EXPECT_EQ(r.errors[1].message, "bad");
  EXPECT_EQ(r.errors[1].count, 1);
}

TEST(ComputeMetrics, WarmupOnlyGivesNoMetrics) {
  const BenchmarkResult r = compute_metrics({warmup_record()}, streaming());
  EXPECT_EQ(r.valid_count, 0);
  EXPECT_EQ(r.error_count, 0);
  EXPECT_TRUE(r.metrics.empty());
  EXPECT_TRUE(r.per_record.empty());
}

TEST(ComputeMetrics, RecordWithoutContentEventsIsInvalid) {
  // A response that only carried a role chunk and a usage chunk leaves no content events.
  RequestRecord usage_only;
  usage_only.start_ns = kT0;
  usage_only.usage.prompt_tokens = 40;
  usage_only.usage.completion_tokens = 0;
  ASSERT_FALSE(usage_only.valid());
  const BenchmarkResult r = compute_metrics({record_a(), usage_only}, streaming());
  EXPECT_EQ(r.valid_count, 1);
  EXPECT_EQ(r.error_count, 1);
  EXPECT_NEAR(get(r, "request_count").value, 1.0, kTol);
  EXPECT_EQ(get(r, "time_to_first_token").stats.count, 1);
  EXPECT_NEAR(get(r, "total_isl").value, 100.0, kTol);  // only A's prompt
  ASSERT_EQ(r.per_record.size(), 2u);
  ASSERT_EQ(r.per_record[1].scalars.size(), 1u) << "an error record has only its ISL";
  EXPECT_EQ(r.per_record[1].scalars[0].first->tag, "error_isl");
  EXPECT_NEAR(r.per_record[1].scalars[0].second, 40.0, kTol);
  EXPECT_NEAR(get(r, "error_isl").stats.avg, 40.0, kTol);
  EXPECT_NEAR(get(r, "total_error_isl").value, 40.0, kTol);
}

// Without reasoning the time to first output token is the TTFT, record by record: events at +37
// and +90 ms give 37 ms for both; a reasoning-only stream (no content) has a TTFT but no TTFO.
TEST(ComputeMetrics, TimeToFirstOutputTokenEqualsTtftWithoutReasoning) {
  RequestRecord plain;
  plain.start_ns = kT0;
  plain.content_events = {content(kT0 + 37 * kMs, "a"), content(kT0 + 90 * kMs, "b")};
  RequestRecord thinking_only;
  thinking_only.start_ns = kT0;
  thinking_only.content_events = {content(kT0 + 12 * kMs, "", "hmm")};
  const BenchmarkResult r = compute_metrics({plain, thinking_only}, streaming());
  const auto& ttfo = get(r, "time_to_first_output_token");
  EXPECT_EQ(ttfo.stats.count, 1);
  EXPECT_NEAR(ttfo.stats.avg, 37.0, kTol);
  EXPECT_EQ(get(r, "time_to_first_token").stats.count, 2);
  ASSERT_EQ(r.per_record.size(), 2u);
  double per_record_ttft = -1;
  double per_record_ttfo = -2;
  for (const auto& [info, value] : r.per_record[0].scalars) {
    if (info->tag == "time_to_first_token") per_record_ttft = value;
    if (info->tag == "time_to_first_output_token") per_record_ttfo = value;
  }
  EXPECT_DOUBLE_EQ(per_record_ttfo, per_record_ttft);
}

TEST(ComputeMetrics, NonStreamingOmitsStreamingOnlyMetrics) {
  RequestRecord r1;
  r1.start_ns = kT0;
  r1.content_events = {content(kT0 + 400 * kMs, "whole body")};
  r1.usage.prompt_tokens = 10;
  r1.usage.completion_tokens = 20;
  const BenchmarkResult r = compute_metrics({r1}, MetricOptions{});
  for (const char* tag : {"time_to_first_token", "time_to_second_token", "inter_token_latency",
                          "output_token_throughput_per_user", "inter_chunk_latency",
                          "prefill_throughput_per_user", "time_to_first_output_token"}) {
    EXPECT_EQ(r.find(tag), nullptr) << tag;
  }
  EXPECT_NEAR(get(r, "request_latency").stats.avg, 400.0, kTol);
  EXPECT_NEAR(get(r, "output_sequence_length").stats.avg, 20.0, kTol);
  EXPECT_NEAR(get(r, "benchmark_duration").value, 0.4, kTol);
  EXPECT_NEAR(get(r, "request_throughput").value, 2.5, kTol);        // 1 / 0.4
  EXPECT_NEAR(get(r, "output_token_throughput").value, 50.0, kTol);  // 20 / 0.4
}

TEST(ComputeMetrics, SingleOutputTokenHasNoInterTokenLatency) {
  RequestRecord r1;
  r1.start_ns = kT0;
  r1.content_events = {content(kT0 + 5 * kMs, "x")};
  r1.usage.completion_tokens = 1;
  const BenchmarkResult r = compute_metrics({r1}, streaming());
  EXPECT_EQ(r.find("inter_token_latency"), nullptr);
  EXPECT_EQ(r.find("time_to_second_token"), nullptr);
  EXPECT_EQ(r.find("inter_chunk_latency"), nullptr);
  EXPECT_NEAR(get(r, "time_to_first_token").stats.avg, 5.0, kTol);
}

TEST(ComputeMetrics, RecordWithoutUsageHasNoTokenMetrics) {
  RequestRecord r1 = record_a();
  r1.usage = {};
  const BenchmarkResult r = compute_metrics({r1}, streaming());
  EXPECT_EQ(r.records_without_usage, 1);
  EXPECT_EQ(r.find("output_sequence_length"), nullptr);
  EXPECT_EQ(r.find("inter_token_latency"), nullptr);
  EXPECT_EQ(r.find("output_token_throughput"), nullptr);
  EXPECT_NEAR(get(r, "time_to_first_token").stats.avg, 50.0, kTol);
}

TEST(ComputeMetrics, OslMismatchAgainstRequestedLength) {
  // requested 100: allowed = min(100*5%, 50) = 5 tokens. 94 -> mismatch (-6%), 97 -> fine (-3%).
  RequestRecord r1 = record_a();
  r1.requested_osl = 100;
  r1.usage.completion_tokens = 94;
  RequestRecord r2 = record_a();
  r2.requested_osl = 100;
  r2.usage.completion_tokens = 97;
  const BenchmarkResult r = compute_metrics({r1, r2}, streaming());
  EXPECT_NEAR(get(r, "osl_mismatch_count").value, 1.0, kTol);
  const auto& pct = get(r, "osl_mismatch_diff_pct");
  EXPECT_NEAR(pct.stats.min, -6.0, kTol);
  EXPECT_NEAR(pct.stats.max, -3.0, kTol);
}

TEST(ComputeMetrics, MetricsFollowCatalogueOrder) {
  const BenchmarkResult r = compute_metrics(mixed_records(), streaming());
  ASSERT_GE(r.metrics.size(), 3u);
  EXPECT_EQ(r.metrics[0].info->tag, "request_throughput");
  EXPECT_EQ(r.metrics[1].info->tag, "request_latency");
  EXPECT_EQ(r.metrics[2].info->tag, "request_count");
}

// The worked example of docs/metrics.md, number for number.
TEST(ComputeMetrics, DocsWorkedExample) {
  RequestRecord a;
  a.credit_num = 0;
  a.intended_ns = kT0 - 150'000;  // -0.15 ms
  a.start_ns = kT0;
  a.content_events = {content(kT0 + 20 * kMs, "a"), content(kT0 + 25 * kMs, "b"),
                      content(kT0 + 30 * kMs, "c"), content(kT0 + 30 * kMs, "d"),
                      content(kT0 + 40 * kMs, "e")};
  a.usage.prompt_tokens = 100;
  a.usage.completion_tokens = 5;
  RequestRecord b;
  b.credit_num = 1;
  b.start_ns = kT0 + 10 * kMs;
  b.content_events = {content(kT0 + 32 * kMs, "x"), content(kT0 + 38 * kMs, "y"),
                      content(kT0 + 44 * kMs, "z")};
  b.usage.prompt_tokens = 100;
  b.usage.completion_tokens = 3;
  const BenchmarkResult r = compute_metrics({a, b}, streaming());

  const auto& ttft = get(r, "time_to_first_token");
  EXPECT_NEAR(ttft.stats.avg, 21.0, kTol);
  EXPECT_NEAR(ttft.stats.std, 1.0, kTol);
  EXPECT_NEAR(ttft.stats.percentile(50), 21.0, kTol);
  EXPECT_NEAR(ttft.stats.percentile(90), 21.8, kTol);
  EXPECT_NEAR(ttft.stats.percentile(99), 21.98, kTol);
  EXPECT_NEAR(ttft.stats.sum, 42.0, kTol);
  EXPECT_NEAR(get(r, "time_to_second_token").stats.min, 5.0, kTol);
  EXPECT_NEAR(get(r, "time_to_second_token").stats.max, 6.0, kTol);
  EXPECT_NEAR(get(r, "request_latency").stats.min, 34.0, kTol);
  EXPECT_NEAR(get(r, "request_latency").stats.max, 40.0, kTol);
  EXPECT_NEAR(get(r, "inter_token_latency").stats.min, 5.0, kTol);
  EXPECT_NEAR(get(r, "inter_token_latency").stats.max, 6.0, kTol);
  EXPECT_NEAR(get(r, "output_token_throughput_per_user").stats.min, 166.66666666666666, 1e-9);
  EXPECT_NEAR(get(r, "output_token_throughput_per_user").stats.max, 200.0, 1e-9);
  EXPECT_NEAR(get(r, "prefill_throughput_per_user").stats.min, 4545.454545454546, 1e-6);
  EXPECT_NEAR(get(r, "prefill_throughput_per_user").stats.max, 5000.0, 1e-6);
  const auto& lag = get(r, "schedule_lag");  // only A has an intended time
  EXPECT_EQ(lag.stats.count, 1);
  EXPECT_NEAR(lag.stats.avg, 0.15, kTol);

  const auto& icl = get(r, "inter_chunk_latency");
  EXPECT_EQ(icl.stats.count, 6);
  EXPECT_NEAR(icl.stats.sum, 32.0, kTol);
  EXPECT_NEAR(icl.stats.avg, 5.333333333333333, kTol);
  EXPECT_NEAR(icl.stats.min, 0.0, kTol);
  EXPECT_NEAR(icl.stats.max, 10.0, kTol);
  EXPECT_NEAR(icl.stats.std, 2.9249881291307074, kTol);
  EXPECT_NEAR(icl.stats.percentile(50), 5.5, kTol);
  EXPECT_NEAR(icl.stats.percentile(90), 8.0, kTol);
  EXPECT_NEAR(icl.stats.percentile(99), 9.8, kTol);

  EXPECT_NEAR(get(r, "benchmark_duration").value, 0.044, kTol);
  EXPECT_NEAR(get(r, "request_throughput").value, 45.45454545454546, 1e-9);
  EXPECT_NEAR(get(r, "output_token_throughput").value, 181.81818181818184, 1e-9);
  EXPECT_NEAR(get(r, "total_token_throughput").value, 4727.272727272728, 1e-9);
  EXPECT_NEAR(get(r, "total_osl").value, 8.0, kTol);
  EXPECT_NEAR(get(r, "total_isl").value, 200.0, kTol);
  EXPECT_NEAR(get(r, "request_count").value, 2.0, kTol);
  EXPECT_EQ(r.find("error_request_count"), nullptr);
}

}  // namespace
