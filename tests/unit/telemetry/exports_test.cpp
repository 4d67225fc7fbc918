#include <gtest/gtest.h>

#include <sstream>

#include "report/telemetry_exports.hpp"

namespace inferperf::report {
namespace {

using telemetry::GpuMetric;
constexpr std::int64_t kSec = 1'000'000'000;

std::vector<telemetry::GpuSample> two_gpus() {
  std::vector<telemetry::GpuSample> out;
  for (int t = 0; t < 4; ++t) {
    for (int g = 0; g < 2; ++g) {
      telemetry::GpuSample s;
      s.mono_ns = t * kSec;
      s.source = "http://node:9400/metrics";
      s.gpu.index = g;
      s.gpu.uuid = "GPU-" + std::to_string(g);
      s.gpu.model_name = "NVIDIA H200";
      s.gpu.hostname = "node";
      s[GpuMetric::kPowerUsage] = 100.0 * (g + 1) + t;
      s[GpuMetric::kEnergyConsumption] = 1.0 + 0.1 * t;
      if (g == 1) s.gpu.pod = "pod-1";
      out.push_back(s);
    }
  }
  return out;
}

GpuTelemetryInput input(const std::vector<telemetry::GpuSample>& samples) {
  GpuTelemetryInput in;
  in.samples = &samples;
  in.endpoints_configured = {"http://node:9400/metrics", "http://localhost:9401/metrics"};
  in.endpoints_successful = {"http://node:9400/metrics"};
  in.window = {kSec, 3 * kSec};
  in.anchor = {0, 1'700'000'000'000'000'000};
  return in;
}

TEST(GpuTelemetryExport, TelemetryDataHasTheAiperfShape) {
  const auto samples = two_gpus();
  const auto j = telemetry_data_json(input(samples));
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["summary"]["endpoints_configured"].size(), 2u);
  EXPECT_EQ(j["summary"]["endpoints_successful"][0], "http://node:9400/metrics");
  const auto& g1 = j["endpoints"]["node:9400"]["gpus"]["gpu_1"];
  EXPECT_EQ(g1["gpu_index"], 1);
  EXPECT_EQ(g1["gpu_name"], "NVIDIA H200");
  EXPECT_EQ(g1["gpu_uuid"], "GPU-1");
  EXPECT_EQ(g1["hostname"], "node");
  EXPECT_EQ(g1["pod"], "pod-1");
  const auto& power = g1["metrics"]["gpu_power_usage"];
  EXPECT_EQ(power["unit"], "W");
  EXPECT_DOUBLE_EQ(power["avg"].get<double>(), 202.0);  // samples at 1, 2, 3 s: 201..203
  EXPECT_DOUBLE_EQ(power["min"].get<double>(), 201.0);
  EXPECT_TRUE(power.contains("p99"));
  const auto& energy = g1["metrics"]["energy_consumption"];
  EXPECT_EQ(energy["unit"], "MJ");
  EXPECT_NEAR(energy["avg"].get<double>(), 0.2, 1e-12);  // 1.3 − 1.1
  EXPECT_FALSE(energy.contains("p50"));
  EXPECT_FALSE(g1["metrics"].contains("gpu_temperature"));
}

TEST(GpuTelemetryExport, NoSampleInTheWindowGivesNull) {
  const auto samples = two_gpus();
  auto in = input(samples);
  in.window = {10 * kSec, 11 * kSec};
  EXPECT_TRUE(telemetry_data_json(in).is_null());
  EXPECT_EQ(gpu_telemetry_csv(nullptr), "");
  EXPECT_EQ(render_gpu_telemetry(nullptr), "");
}

TEST(GpuTelemetryExport, CsvSectionAndConsoleTable) {
  const auto samples = two_gpus();
  const auto j = telemetry_data_json(input(samples));
  const std::string csv = gpu_telemetry_csv(j);
  EXPECT_EQ(csv.rfind("\r\n\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,sum,p1,", 0),
            0u);
  EXPECT_NE(csv.find(",std,Hostname,Pod Name\r\n"), std::string::npos);
  EXPECT_NE(csv.find("node:9400,0,NVIDIA H200,GPU-0,GPU Power Usage (W),102.00,101.00,103.00,,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("node:9400,1,NVIDIA H200,GPU-1,Energy Consumption (MJ),0.20,,,,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",node,pod-1\r\n"), std::string::npos);
  const std::string table = render_gpu_telemetry(j);
  EXPECT_EQ(table.rfind("1/2 DCGM endpoints reachable\n", 0), 0u) << table;
  EXPECT_NE(table.find("GPU Telemetry Summary | node:9400 | GPU 1 | NVIDIA H200"),
            std::string::npos);
  EXPECT_NE(table.find("GPU Power Usage (W)"), std::string::npos);
}

TEST(GpuTelemetryExport, JsonlLinePerGpuPerScrape) {
  const auto samples = two_gpus();
  std::ostringstream out;
  write_gpu_telemetry_jsonl(samples, {0, 1000}, out);
  std::istringstream lines(out.str());
  std::string first;
  std::getline(lines, first);
  const auto j = nlohmann::json::parse(first);
  EXPECT_EQ(j["timestamp_ns"], 1000);
  EXPECT_EQ(j["dcgm_url"], "http://node:9400/metrics");
  EXPECT_EQ(j["gpu_index"], 0);
  EXPECT_DOUBLE_EQ(j["telemetry_data"]["gpu_power_usage"].get<double>(), 100.0);
  EXPECT_FALSE(j["telemetry_data"].contains("gpu_temperature"));  // null fields omitted
  int n = 1;
  while (std::getline(lines, first)) ++n;
  EXPECT_EQ(n, 8);
}

std::string page(double running, double tokens, double b1, double binf, double sum) {
  return "# HELP running Requests running.\n# TYPE running gauge\nrunning{model=\"m\"} " +
         std::to_string(running) + "\n# HELP tok_total Tokens.\n# TYPE tok_total counter\n" +
         "tok_total " + std::to_string(tokens) +
         "\n# TYPE lat_seconds histogram\nlat_seconds_bucket{le=\"0.5\"} " + std::to_string(b1) +
         "\nlat_seconds_bucket{le=\"+Inf\"} " + std::to_string(binf) + "\nlat_seconds_sum " +
         std::to_string(sum) + "\nlat_seconds_count " + std::to_string(binf) +
         "\n# TYPE engine_info gauge\nengine_info{version=\"1.2\",kind=\"x,y\"} 1\n";
}

TEST(ServerMetricsExport, JsonCsvAndJsonl) {
  std::vector<telemetry::ScrapeLog> logs;
  logs.emplace_back("http://s:8000/metrics");
  auto& log = logs.back();
  log.add(telemetry::parse_prometheus(page(0, 10, 0, 0, 0)), 0, kSec / 10);
  log.add(telemetry::parse_prometheus(page(4, 30, 3, 4, 1.0)), kSec, kSec + kSec / 10);
  log.add(telemetry::parse_prometheus(page(4, 30, 3, 4, 1.0)), 2 * kSec, 2 * kSec + kSec / 10);
  log.add(telemetry::parse_prometheus(page(2, 50, 5, 8, 3.0)), 3 * kSec, 3 * kSec);
  std::vector<telemetry::EndpointState> eps(2);
  eps[0].url = "http://s:8000/metrics";
  eps[0].reach = telemetry::Reach::kReachable;
  eps[1].url = "http://t:9/metrics";
  eps[1].reach = telemetry::Reach::kUnreachable;
  ServerMetricsInput in;
  in.logs = &logs;
  in.endpoints = &eps;
  in.window = {kSec / 2, 3 * kSec};
  in.anchor = {0, 0};
  in.benchmark_id = "b";
  const auto j = server_metrics_json(in);
  EXPECT_EQ(j["summary"]["endpoints_configured"].size(), 2u);
  EXPECT_EQ(j["summary"]["endpoints_successful"].size(), 1u);
  const auto& info = j["summary"]["endpoint_info"]["http://s:8000/metrics"];
  EXPECT_EQ(info["total_fetches"], 4);
  EXPECT_EQ(info["unique_updates"], 3);  // the third scrape repeats the second
  EXPECT_NEAR(info["avg_fetch_latency_ms"].get<double>(), 75.0, 1e-9);
  const auto& running = j["metrics"]["running"];
  EXPECT_EQ(running["type"], "gauge");
  EXPECT_EQ(running["description"], "Requests running.");
  EXPECT_DOUBLE_EQ(running["series"][0]["stats"]["avg"].get<double>(), 10.0 / 3);
  EXPECT_EQ(running["series"][0]["labels"]["model"], "m");
  const auto& tok = j["metrics"]["tok_total"];
  EXPECT_EQ(tok["type"], "counter");
  EXPECT_EQ(tok["unit"], "count");
  EXPECT_DOUBLE_EQ(tok["series"][0]["stats"]["total"].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(tok["series"][0]["stats"]["rate"].get<double>(), 16.0);
  const auto& lat = j["metrics"]["lat_seconds"];
  EXPECT_EQ(lat["unit"], "seconds");
  EXPECT_DOUBLE_EQ(lat["series"][0]["stats"]["count"].get<double>(), 8.0);
  EXPECT_DOUBLE_EQ(lat["series"][0]["stats"]["avg"].get<double>(), 3.0 / 8);
  EXPECT_DOUBLE_EQ(lat["series"][0]["buckets"]["0.5"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(lat["series"][0]["stats"]["p50_estimate"].get<double>(), 0.4);
  EXPECT_EQ(j["metrics"]["engine_info"]["type"], "info");

  const std::string csv = server_metrics_csv(j);
  EXPECT_NE(csv.find("Endpoint,Type,Metric,Unit,avg,min,max,std,p1,p5,p10,p25,p50,p75,p90,p95,"
                     "p99,model,Description\r\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\r\n\r\nEndpoint,Type,Metric,Unit,total,rate,rate_avg,rate_min,rate_max,"
                     "rate_std,Description\r\n"),
            std::string::npos);
  EXPECT_NE(csv.find("http://s:8000/metrics,counter,tok_total,count,40.00,16.00,"),
            std::string::npos);
  EXPECT_NE(csv.find(",Description,buckets\r\n"), std::string::npos);
  EXPECT_NE(csv.find("0.5:5;+Inf:8"), std::string::npos);
  EXPECT_NE(csv.find("Endpoint,Metric,Key,Value,Description\r\n"), std::string::npos);
  EXPECT_NE(csv.find("http://s:8000/metrics,engine_info,kind,\"x,y\","), std::string::npos);

  std::ostringstream jsonl;
  write_server_metrics_jsonl(in, jsonl);
  std::istringstream lines(jsonl.str());
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    const auto l = nlohmann::json::parse(line);
    EXPECT_EQ(l["endpoint_url"], "http://s:8000/metrics");
    if (n == 1) {
      EXPECT_EQ(l["endpoint_latency_ns"], kSec / 10);
      EXPECT_DOUBLE_EQ(l["metrics"]["tok_total"][0]["value"].get<double>(), 30.0);
      EXPECT_DOUBLE_EQ(l["metrics"]["lat_seconds"][0]["buckets"]["+Inf"].get<double>(), 4.0);
      EXPECT_EQ(l["metrics"]["running"][0]["labels"]["model"], "m");
    }
    ++n;
  }
  EXPECT_EQ(n, 3);  // the unchanged scrape is left out
}

// llama.cpp's *_tokens_seconds gauges are throughputs (their help text: tokens/s), not durations.
TEST(ServerMetricsExport, LlamaCppTokenRatesAreTokensPerSecond) {
  std::vector<telemetry::ScrapeLog> logs;
  logs.emplace_back("http://s:8000/metrics");
  const std::string text =
      "# HELP llamacpp:prompt_tokens_seconds Average prompt throughput in tokens/s.\n"
      "# TYPE llamacpp:prompt_tokens_seconds gauge\nllamacpp:prompt_tokens_seconds 120.5\n"
      "# TYPE request_wait_seconds gauge\nrequest_wait_seconds 0.5\n";
  logs.back().add(telemetry::parse_prometheus(text), 0, kSec / 10);
  logs.back().add(telemetry::parse_prometheus(text), kSec, kSec + kSec / 10);
  std::vector<telemetry::EndpointState> eps(1);
  eps[0].url = "http://s:8000/metrics";
  eps[0].reach = telemetry::Reach::kReachable;
  ServerMetricsInput in;
  in.logs = &logs;
  in.endpoints = &eps;
  in.window = {0, 2 * kSec};
  in.anchor = {0, 0};
  in.benchmark_id = "b";
  const auto j = server_metrics_json(in);
  EXPECT_EQ(j["metrics"]["llamacpp:prompt_tokens_seconds"]["unit"], "tokens/s");
  EXPECT_EQ(j["metrics"]["request_wait_seconds"]["unit"], "seconds");
}

}  // namespace
}  // namespace inferperf::report
