#include <gtest/gtest.h>

#include <sstream>

#include "report/gpu_energy.hpp"
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
  EXPECT_EQ(g1["pod_name"], "pod-1");      // AIPerf 0.11's key; the DCGM label is "pod"
  EXPECT_FALSE(g1.contains("namespace"));  // only when the exporter labels it
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
  // Updates finished at 0.1, 1.1 and 3.0 s (anchor: wall = monotonic).
  std::vector<std::string> keys;
  for (const auto& [k, v] : info.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "total_fetches", "first_fetch_ns", "last_fetch_ns", "avg_fetch_latency_ms",
                      "unique_updates", "first_update_ns", "last_update_ns", "duration_seconds",
                      "avg_update_interval_ms", "median_update_interval_ms"}));
  EXPECT_EQ(info["first_fetch_ns"], kSec / 10);
  EXPECT_EQ(info["last_fetch_ns"], 3 * kSec);
  EXPECT_EQ(info["first_update_ns"], kSec / 10);
  EXPECT_EQ(info["last_update_ns"], 3 * kSec);
  EXPECT_NEAR(info["duration_seconds"].get<double>(), 2.9, 1e-12);
  EXPECT_NEAR(info["avg_update_interval_ms"].get<double>(), 1450.0, 1e-9);     // 2900 / 2
  EXPECT_NEAR(info["median_update_interval_ms"].get<double>(), 1450.0, 1e-9);  // of 1000, 1900
  EXPECT_FALSE(j["metrics"]["running"]["series"][0].contains("timeslices"));   // not asked for
  const auto& running = j["metrics"]["running"];
  EXPECT_EQ(running["type"], "gauge");
  EXPECT_EQ(running["description"], "Requests running.");
  EXPECT_DOUBLE_EQ(running["series"][0]["stats"]["avg"].get<double>(), 10.0 / 3);
  EXPECT_EQ(running["series"][0]["labels"]["model"], "m");
  const auto& tok = j["metrics"]["tok"];
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
  EXPECT_NE(csv.find("http://s:8000/metrics,counter,tok,count,40.00,16.00,"), std::string::npos);
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
      EXPECT_DOUBLE_EQ(l["metrics"]["tok"][0]["value"].get<double>(), 30.0);
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

// One fetch: no interval, so AIPerf's zeros and a null median.
TEST(ServerMetricsExport, EndpointInfoOfASingleFetch) {
  std::vector<telemetry::ScrapeLog> logs;
  logs.emplace_back("http://s:8000/metrics");
  logs.back().add(telemetry::parse_prometheus("g 1\n"), kSec, kSec + 2'000'000);
  std::vector<telemetry::EndpointState> eps(1);
  eps[0].url = "http://s:8000/metrics";
  ServerMetricsInput in;
  in.logs = &logs;
  in.endpoints = &eps;
  in.window = {0, 2 * kSec};
  in.anchor = {0, 1'000};
  const auto info = server_metrics_json(in)["summary"]["endpoint_info"]["http://s:8000/metrics"];
  EXPECT_EQ(info["total_fetches"], 1);
  EXPECT_EQ(info["unique_updates"], 1);
  EXPECT_EQ(info["first_update_ns"], kSec + 2'000'000 + 1'000);
  EXPECT_EQ(info["last_update_ns"], info["first_update_ns"]);
  EXPECT_DOUBLE_EQ(info["avg_fetch_latency_ms"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(info["duration_seconds"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(info["avg_update_interval_ms"].get<double>(), 0.0);
  EXPECT_TRUE(info["median_update_interval_ms"].is_null());
}

// --slice-duration 2 over a 2.7 s window: one complete and one partial slice per series, with
// AIPerf's per-type keys; the final scrape after the window counts in the last slice.
TEST(ServerMetricsExport, TimeslicesPerSeries) {
  auto text = [](double g, double c, double b1, double binf, double sum) {
    return "# TYPE q gauge\nq " + std::to_string(g) + "\n# TYPE c_total counter\nc_total " +
           std::to_string(c) + "\n# TYPE h histogram\nh_bucket{le=\"1\"} " + std::to_string(b1) +
           "\nh_bucket{le=\"+Inf\"} " + std::to_string(binf) + "\nh_sum " + std::to_string(sum) +
           "\nh_count " + std::to_string(binf) + "\nu 7\n";
  };
  std::vector<telemetry::ScrapeLog> logs;
  logs.emplace_back("http://s:8000/metrics");
  auto& log = logs.back();
  log.add(telemetry::parse_prometheus(text(0, 100, 0, 0, 0)), 0, 0);  // baseline
  log.add(telemetry::parse_prometheus(text(2, 110, 1, 2, 1.5)), kSec, kSec);
  log.add(telemetry::parse_prometheus(text(4, 130, 2, 4, 3.0)), 2 * kSec, 2 * kSec);
  log.add(telemetry::parse_prometheus(text(6, 160, 3, 8, 9.0)), 3 * kSec, 3 * kSec);
  log.add(telemetry::parse_prometheus(text(0, 170, 3, 9, 10.0)), 4 * kSec, 4 * kSec);  // final
  std::vector<telemetry::EndpointState> eps(1);
  eps[0].url = "http://s:8000/metrics";
  ServerMetricsInput in;
  in.logs = &logs;
  in.endpoints = &eps;
  in.window = {kSec / 2, 3 * kSec + kSec / 5};  // 0.5 .. 3.2 s
  in.anchor = {0, 0};
  in.slice_duration_s = 2.0;
  const auto j = server_metrics_json(in);

  const auto& q = j["metrics"]["q"]["series"][0]["timeslices"];
  ASSERT_EQ(q.size(), 2u);
  std::vector<std::string> keys;
  for (const auto& [k, v] : q[1].items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"start_ns", "end_ns", "is_complete", "avg", "min", "max"}));
  EXPECT_EQ(q[0]["start_ns"], kSec / 2);
  EXPECT_EQ(q[0]["end_ns"], kSec / 2 + 2 * kSec);
  EXPECT_FALSE(q[0].contains("is_complete"));        // written only on a partial slice
  EXPECT_DOUBLE_EQ(q[0]["avg"].get<double>(), 3.0);  // 2 and 4
  EXPECT_DOUBLE_EQ(q[0]["min"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(q[0]["max"].get<double>(), 4.0);
  EXPECT_EQ(q[1]["end_ns"], 3 * kSec + kSec / 5);
  EXPECT_EQ(q[1]["is_complete"], false);
  EXPECT_DOUBLE_EQ(q[1]["avg"].get<double>(), 6.0);  // the final scrape is past the window

  const auto& c = j["metrics"]["c"]["series"][0]["timeslices"];
  ASSERT_EQ(c.size(), 2u);
  EXPECT_DOUBLE_EQ(c[0]["total"].get<double>(), 30.0);  // 100 -> 130
  EXPECT_DOUBLE_EQ(c[0]["rate"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(c[1]["total"].get<double>(), 40.0);  // 130 -> 170, the final scrape included
  EXPECT_NEAR(c[1]["rate"].get<double>(), 40.0 / 0.7, 1e-9);
  EXPECT_FALSE(c[1].contains("avg"));

  const auto& h = j["metrics"]["h"]["series"][0]["timeslices"];
  ASSERT_EQ(h.size(), 2u);
  keys.clear();
  for (const auto& [k, v] : h[0].items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"start_ns", "end_ns", "count", "sum", "avg", "buckets"}));
  EXPECT_DOUBLE_EQ(h[0]["count"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(h[0]["sum"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(h[0]["avg"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(h[0]["buckets"]["1"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(h[0]["buckets"]["+Inf"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(h[1]["count"].get<double>(), 5.0);  // 4 -> 9
  EXPECT_DOUBLE_EQ(h[1]["sum"].get<double>(), 7.0);    // 3 -> 10
  EXPECT_DOUBLE_EQ(h[1]["avg"].get<double>(), 1.4);
  EXPECT_DOUBLE_EQ(h[1]["buckets"]["1"].get<double>(), 1.0);
  EXPECT_EQ(h[1]["is_complete"], false);

  // A TYPE-less family is "unknown", summarised like a gauge, slices included.
  const auto& u = j["metrics"]["u"];
  EXPECT_EQ(u["type"], "unknown");
  EXPECT_DOUBLE_EQ(u["series"][0]["stats"]["p50"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(u["series"][0]["timeslices"][0]["max"].get<double>(), 7.0);
  const std::string csv = server_metrics_csv(j);
  EXPECT_NE(csv.find("http://s:8000/metrics,unknown,u,,7.00,"), std::string::npos) << csv;
}

TEST(GpuTotals, PowerAveragedPerGpuEnergyDeltaInJoules) {
  auto samples = two_gpus();   // 0..3 s; power 100+t and 200+t W; energy 1.0 + 0.1 t MJ
  telemetry::GpuSample other;  // a GPU of another exporter, power only
  other.mono_ns = 2 * kSec;
  other.source = "http://other:9400/metrics";
  other[GpuMetric::kPowerUsage] = 50.0;
  samples.push_back(other);
  const auto t = telemetry::gpu_totals(samples, {kSec, 3 * kSec});
  ASSERT_TRUE(t.total_gpu_power_w);
  EXPECT_DOUBLE_EQ(*t.total_gpu_power_w, 102.0 + 202.0 + 50.0);
  ASSERT_TRUE(t.total_gpu_energy_j);
  EXPECT_NEAR(*t.total_gpu_energy_j, 2 * 0.2e6, 1e-6);  // (1.3 − 1.1) MJ per GPU
  const auto none = telemetry::gpu_totals(samples, {10 * kSec, 11 * kSec});
  EXPECT_FALSE(none.total_gpu_power_w);
  EXPECT_FALSE(none.total_gpu_energy_j);
  // The same numbers from the telemetry_data object alone (what `analyze` has).
  auto in = input(samples);
  const auto from_json = gpu_totals_from_telemetry_data(telemetry_data_json(in));
  EXPECT_NEAR(from_json.total_gpu_power_w.value_or(-1), *t.total_gpu_power_w, 1e-9);
  EXPECT_NEAR(from_json.total_gpu_energy_j.value_or(-1), *t.total_gpu_energy_j, 1e-6);
  EXPECT_FALSE(gpu_totals_from_telemetry_data(nullptr).total_gpu_power_w);
  const auto power_only = telemetry::gpu_totals({other}, {0, 3 * kSec});
  EXPECT_DOUBLE_EQ(power_only.total_gpu_power_w.value_or(-1), 50.0);
  EXPECT_FALSE(power_only.total_gpu_energy_j);
}

// AIPerf 0.11's derived GPU metrics from telemetry_data: power and energy totals, tokens per
// joule, energy per user at the profiling concurrency.
TEST(GpuEnergyMetrics, DerivedFromTelemetryDataInCatalogueOrder) {
  const auto samples = two_gpus();  // energy 1.1 -> 1.3 MJ per GPU over the window
  auto in = input(samples);
  ReportContext ctx;
  ctx.telemetry_data = telemetry_data_json(in);
  ctx.input_config = {
      {"phases", nlohmann::ordered_json::array({{{"name", "warmup"}, {"concurrency", 1}},
                                                {{"name", "profiling"}, {"concurrency", 4}}})}};
  metrics::BenchmarkResult result;
  metrics::MetricResult tokens;
  tokens.info = metrics::find_metric("total_output_tokens");
  tokens.scalar = true;
  tokens.value = 8000;
  result.metrics.push_back(tokens);
  add_gpu_energy_metrics(result, ctx);
  const auto* energy = result.find("total_gpu_energy");
  ASSERT_NE(energy, nullptr);
  const double joules =
      gpu_totals_from_telemetry_data(ctx.telemetry_data).total_gpu_energy_j.value();
  EXPECT_DOUBLE_EQ(energy->value, joules);
  EXPECT_DOUBLE_EQ(result.find("output_tokens_per_joule")->value, 8000 / joules);
  EXPECT_DOUBLE_EQ(result.find("energy_per_user")->value, joules / 4) << "profiling, not warmup";
  ASSERT_NE(result.find("total_gpu_power"), nullptr);
  std::vector<std::string_view> tags;
  for (const auto& m : result.metrics) tags.push_back(m.info->tag);
  EXPECT_EQ(tags, (std::vector<std::string_view>{"total_output_tokens", "total_gpu_power",
                                                 "total_gpu_energy", "output_tokens_per_joule",
                                                 "energy_per_user"}));
  EXPECT_EQ(result.find("total_gpu_power")->info->header, "Total GPU Power");

  metrics::BenchmarkResult none;
  add_gpu_energy_metrics(none, ReportContext{});
  EXPECT_TRUE(none.metrics.empty()) << "no telemetry, no GPU metrics";
}

}  // namespace
}  // namespace inferperf::report
