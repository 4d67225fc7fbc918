// The network-latency adjustment: network_adjusted_* = each request's value less the round trip,
// floored at 0, with full statistics and no count; network_rtt; the probes file's lines.
#include "report/network_latency.hpp"

#include <gtest/gtest.h>

#include "report/export_parts.hpp"

namespace inferperf::report {
namespace {

// Records with request_latency (and TTFT for the first two) in ns; the originals as compute
// leaves them (catalogue order, display units).
metrics::BenchmarkResult result_of(const std::vector<double>& latency_ns,
                                   const std::vector<double>& ttft_ns) {
  metrics::BenchmarkResult r;
  const auto* lat = metrics::find_metric("request_latency");
  const auto* ttft = metrics::find_metric("time_to_first_token");
  r.base_values.emplace_back(lat, latency_ns);
  if (!ttft_ns.empty()) r.base_values.emplace_back(ttft, ttft_ns);
  metrics::MetricResult m;
  m.info = lat;
  std::vector<double> ms;
  for (double v : latency_ns) ms.push_back(v / 1e6);
  m.stats = core::compute_stats(ms);
  r.metrics.push_back(m);
  return r;
}

TEST(NetworkLatency, OffWithoutARoundTrip) {
  auto r = result_of({10e6}, {});
  ReportContext ctx;
  EXPECT_TRUE(add_network_adjusted_metrics(r, ctx).empty());
  EXPECT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.find("network_rtt"), nullptr);
}

TEST(NetworkLatency, SubtractsFloorsAndKeepsTheOriginals) {
  auto r = result_of({10e6, 3e6, 20e6}, {6e6, 4e6});
  ReportContext ctx;
  ctx.network_rtt_ns = 5e6;
  const auto warnings = add_network_adjusted_metrics(r, ctx);
  const auto* adj = r.find("network_adjusted_request_latency");
  ASSERT_NE(adj, nullptr);
  EXPECT_FALSE(adj->scalar);
  EXPECT_EQ(adj->stats.count, 3);
  EXPECT_DOUBLE_EQ(adj->stats.min, 0.0);  // 3 ms - 5 ms floored
  EXPECT_DOUBLE_EQ(adj->stats.max, 15.0);
  EXPECT_DOUBLE_EQ(adj->stats.sum, 20.0);
  EXPECT_NEAR(adj->stats.avg, 20.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(adj->stats.percentile(50), 5.0);
  const auto* ttft = r.find("network_adjusted_time_to_first_token");
  ASSERT_NE(ttft, nullptr);
  EXPECT_DOUBLE_EQ(ttft->stats.min, 0.0);
  EXPECT_DOUBLE_EQ(ttft->stats.max, 1.0);
  EXPECT_EQ(r.find("network_adjusted_time_to_first_output_token"), nullptr);  // no values
  const auto* rtt = r.find("network_rtt");
  ASSERT_NE(rtt, nullptr);
  EXPECT_TRUE(rtt->scalar);
  EXPECT_DOUBLE_EQ(rtt->value, 5.0);
  // The original is unchanged.
  EXPECT_DOUBLE_EQ(r.find("request_latency")->stats.min, 3.0);
  // One warning per metric with floored values, naming it and the count.
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("network_adjusted_request_latency: 1 of 3"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[1].find("network_adjusted_time_to_first_token: 1 of 2"), std::string::npos)
      << warnings[1];
  // Catalogue order: the originals first, network_* after them.
  EXPECT_EQ(r.metrics.front().info->tag, "request_latency");
  EXPECT_EQ(r.metrics.back().info->tag, "network_rtt");
}

TEST(NetworkLatency, AdjustedMetricsExportWithoutCount) {
  auto r = result_of({10e6, 12e6}, {});
  ReportContext ctx;
  ctx.network_rtt_ns = 2e6;
  add_network_adjusted_metrics(r, ctx);
  const auto adj = metric_object(*r.find("network_adjusted_request_latency"));
  EXPECT_EQ(adj["unit"], "ms");
  EXPECT_DOUBLE_EQ(adj["avg"].get<double>(), 9.0);
  EXPECT_DOUBLE_EQ(adj["sum"].get<double>(), 18.0);
  EXPECT_TRUE(adj.contains("p99"));
  EXPECT_TRUE(adj.contains("std"));
  EXPECT_FALSE(adj.contains("count"));
  EXPECT_TRUE(metric_object(*r.find("request_latency")).contains("count"));
  const auto rtt = metric_object(*r.find("network_rtt"));
  EXPECT_EQ(rtt.dump(), R"({"unit":"ms","avg":2.0})");
  EXPECT_EQ(metrics::find_metric("network_rtt")->header, "Network RTT");
  EXPECT_EQ(metrics::find_metric("network_adjusted_time_to_first_output_token")->header,
            "Network-Adjusted Time to First Output Token");
}

TEST(NetworkLatency, ProbeLines) {
  NetworkProbe ok;
  ok.timestamp_ns = 1'700'000'000'000'000'000;
  ok.target_url = "http://127.0.0.1:8000";
  ok.target_host = "127.0.0.1";
  ok.target_port = 8000;
  ok.rtt_ns = 52'000;
  NetworkProbe failed = ok;
  failed.rtt_ns.reset();
  failed.error = "Connection refused";
  EXPECT_EQ(network_probes_jsonl({ok, failed}),
            R"({"timestamp_ns":1700000000000000000,"target_url":"http://127.0.0.1:8000",)"
            R"("target_host":"127.0.0.1","target_port":8000,"probe_type":"tcp_connect",)"
            R"("rtt_ns":52000,"success":true})"
            "\n"
            R"({"timestamp_ns":1700000000000000000,"target_url":"http://127.0.0.1:8000",)"
            R"("target_host":"127.0.0.1","target_port":8000,"probe_type":"tcp_connect",)"
            R"("rtt_ns":null,"success":false,"error":"Connection refused"})"
            "\n");
  NetworkProbe other = ok;
  other.rtt_ns = 48'000;
  EXPECT_DOUBLE_EQ(*mean_probe_rtt_ns({ok, failed, other}), 50'000.0);
  EXPECT_FALSE(mean_probe_rtt_ns({failed}));
}

}  // namespace
}  // namespace inferperf::report
