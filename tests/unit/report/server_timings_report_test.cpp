// The metrics joined with server timings in the exports: per-record profile_export.jsonl values,
// summary JSON/CSV after AIPerf's keys, and a console table only when some record carried them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "report/console_notes.hpp"
#include "report/console_table.hpp"
#include "report/exporters.hpp"

namespace {

using inferperf::metrics::compute_metrics;
using inferperf::metrics::MetricOptions;
using inferperf::records::ContentEvent;
using inferperf::records::RequestRecord;
using inferperf::records::ServerTimings;
using inferperf::report::ReportContext;

constexpr std::int64_t kT0 = 1'000'000'000'000;
constexpr std::int64_t kMs = 1'000'000;

// Request latency 120 ms, TTFT 25 ms; the server reports prompt_ms 20, predicted_ms 90.
std::vector<RequestRecord> records(bool with_timings) {
  RequestRecord r;
  r.start_ns = kT0;
  r.content_events = {ContentEvent{kT0 + 25 * kMs, 0, "a", ""},
                      ContentEvent{kT0 + 120 * kMs, 1, "b", ""}};
  if (with_timings) r.server_timings = ServerTimings{20.0, 90.0, 12, 2, 0, "llama.cpp"};
  return {r};
}

MetricOptions streaming() {
  MetricOptions o;
  o.streaming = true;
  return o;
}

bool has(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

TEST(ServerTimingsReport, PerRecordJsonlValues) {
  const auto recs = records(true);
  const auto result = compute_metrics(recs, streaming());
  ReportContext ctx;
  const auto line = nlohmann::json::parse(inferperf::report::records_jsonl(result, ctx));
  const auto& m = line.at("metrics");
  EXPECT_DOUBLE_EQ(m.at("server_prefill_time").at("value").get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(m.at("server_decode_time").at("value").get<double>(), 90.0);
  EXPECT_DOUBLE_EQ(m.at("server_time").at("value").get<double>(), 110.0);
  EXPECT_DOUBLE_EQ(m.at("client_overhead_time").at("value").get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(m.at("server_ttft_overhead").at("value").get<double>(), 5.0);
  EXPECT_EQ(m.at("client_overhead_time").at("unit"), "ms");
}

TEST(ServerTimingsReport, SummariesListThemAfterAiperfKeys) {
  const auto recs = records(true);
  const auto result = compute_metrics(recs, streaming());
  ReportContext ctx;
  const auto j = inferperf::report::summary_json(result, ctx);
  ASSERT_TRUE(j.contains("client_overhead_time"));
  EXPECT_DOUBLE_EQ(j["client_overhead_time"]["avg"].get<double>(), 10.0);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  const auto pos = [&](const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) - keys.begin();
  };
  EXPECT_LT(pos("inferperf_version"), pos("server_prefill_time"));
  EXPECT_LT(pos("server_prefill_time"), pos("client_overhead_time"));
  const std::string csv = inferperf::report::summary_csv(result);
  EXPECT_TRUE(has(csv, "\r\nNetwork + Client Overhead (ms),10.00,10.00,10.00,10.00,"));
  EXPECT_TRUE(has(csv, "\r\nServer Prefill Time (ms),20.00,"));
  EXPECT_TRUE(has(csv, "\r\nTTFT Network + Client Overhead (ms),5.00,"));
}

TEST(ServerTimingsReport, ConsoleTableOnlyWhenPresent) {
  const auto with = compute_metrics(records(true), streaming());
  const std::string table = inferperf::report::render_server_timings_table(with);
  EXPECT_TRUE(has(table, "inferperf | Server Timings"));
  EXPECT_TRUE(has(table, "Server Prefill Time (ms)"));
  EXPECT_TRUE(has(table, "Network + Client Overhead (ms)"));
  EXPECT_TRUE(has(table, "TTFT Network + Client Overhead (ms)"));
  // Not in the main AIPerf table.
  EXPECT_FALSE(has(inferperf::report::render_metrics_table(with, ReportContext{}), "Server"));
  const auto without = compute_metrics(records(false), streaming());
  EXPECT_EQ(inferperf::report::render_server_timings_table(without), "");
  EXPECT_FALSE(has(inferperf::report::summary_csv(without), "Overhead"));
}

}  // namespace
