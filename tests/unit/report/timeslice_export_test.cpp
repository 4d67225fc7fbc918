// The timeslice CSV and JSON writers on hand-built slice results.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics/catalogue.hpp"
#include "report/exporters.hpp"

namespace {

using inferperf::core::Stats;
using inferperf::metrics::BenchmarkResult;
using inferperf::metrics::find_metric;
using inferperf::metrics::MetricResult;
using inferperf::metrics::Timeslice;
using inferperf::report::ReportContext;
using inferperf::report::summary_json;
using inferperf::report::timeslices_csv;
using inferperf::report::timeslices_json;

MetricResult scalar(const char* tag, double v) {
  MetricResult m;
  m.info = find_metric(tag);
  m.scalar = true;
  m.value = v;
  return m;
}

MetricResult latency() {
  MetricResult m;
  m.info = find_metric("request_latency");
  Stats& s = m.stats;
  s.avg = 15;
  s.min = 10;
  s.max = 20;
  s.sum = 30;
  s.std = 5;
  s.count = 2;
  s.p = {10.1, 10.5, 11, 12.5, 15, 17.5, 19, 19.5, 19.9};
  return m;
}

// Slice 0: two requests (latency stats, count, throughput); slice 1: one error only. Metrics are
// in catalogue order, as compute_metrics leaves them.
std::vector<Timeslice> slices() {
  Timeslice a;
  a.index = 0;
  a.result.metrics = {scalar("request_throughput", 2.5), latency(), scalar("request_count", 2)};
  Timeslice b;
  b.index = 1;
  b.result.metrics = {scalar("error_request_count", 1)};
  return {a, b};
}

TEST(TimeslicesCsv, TidyRowsSortedByTagWithStatsInOrder) {
  const std::string expected =
      "Timeslice,Metric,Unit,Stat,Value\r\n"
      "0,Request Count,requests,avg,2\r\n"
      "0,Request Latency,ms,avg,15.00\r\n"
      "0,Request Latency,ms,min,10.00\r\n"
      "0,Request Latency,ms,max,20.00\r\n"
      "0,Request Latency,ms,sum,30.00\r\n"
      "0,Request Latency,ms,p1,10.10\r\n"
      "0,Request Latency,ms,p5,10.50\r\n"
      "0,Request Latency,ms,p10,11.00\r\n"
      "0,Request Latency,ms,p25,12.50\r\n"
      "0,Request Latency,ms,p50,15.00\r\n"
      "0,Request Latency,ms,p75,17.50\r\n"
      "0,Request Latency,ms,p90,19.00\r\n"
      "0,Request Latency,ms,p95,19.50\r\n"
      "0,Request Latency,ms,p99,19.90\r\n"
      "0,Request Latency,ms,std,5.00\r\n"
      "0,Request Throughput,requests/sec,avg,2.50\r\n"
      "1,Error Request Count,requests,avg,1\r\n";
  EXPECT_EQ(timeslices_csv(slices()), expected);
}

TEST(TimeslicesCsv, NoSlicesGiveTheHeaderOnly) {
  EXPECT_EQ(timeslices_csv({}), "Timeslice,Metric,Unit,Stat,Value\r\n");
}

TEST(TimeslicesJson, SlicesHoldTheSummaryMetricObjects) {
  ReportContext ctx;
  ctx.input_config = {{"output", {{"slice_duration", 0.5}}}};
  const auto s = slices();
  const auto j = timeslices_json(s, ctx);

  std::vector<std::string> top;
  for (const auto& [k, v] : j.items()) top.push_back(k);
  EXPECT_EQ(top, (std::vector<std::string>{"timeslices", "input_config"}));
  EXPECT_EQ(j["input_config"], ctx.input_config);
  ASSERT_EQ(j["timeslices"].size(), 2u);

  const auto& s0 = j["timeslices"][0];
  std::vector<std::string> keys;
  for (const auto& [k, v] : s0.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"timeslice_index", "request_throughput",
                                            "request_latency", "request_count"}));
  EXPECT_EQ(s0["timeslice_index"], 0);
  // Exactly what profile_export_aiperf.json holds for the same result.
  const auto summary = summary_json(s[0].result, ctx);
  for (const char* tag : {"request_throughput", "request_latency", "request_count"}) {
    EXPECT_EQ(s0[tag], summary[tag]) << tag;
  }
  EXPECT_EQ(s0["request_count"].dump(), R"({"unit":"requests","avg":2})");
  EXPECT_EQ(s0["request_latency"]["p99"], 19.9);

  const auto& s1 = j["timeslices"][1];
  EXPECT_EQ(s1.size(), 2u);
  EXPECT_EQ(s1["timeslice_index"], 1);
  EXPECT_EQ(s1["error_request_count"].dump(), R"({"unit":"requests","avg":1})");
}

}  // namespace
