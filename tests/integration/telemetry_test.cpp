// GPU telemetry and server metrics end to end: the mock server's Prometheus pages and fake DCGM
// exporters scraped over real HTTP, and NVML through the stub library found on LD_LIBRARY_PATH.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

TEST(ServerMetrics, ScrapedByDefaultAndCountersMatchTheRun) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-srvmetrics-");
  auto r = run_process(
      server_counted_profile_args(mock, dir,
                                  {"--request-count", "40", "--request-rate", "40",
                                   "--server-metrics-formats", "json", "csv", "jsonl"}),
      std::chrono::seconds(90), "", {"AIPERF_SERVER_METRICS_COLLECTION_FLUSH_PERIOD=0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Server Metrics JSON Export: " + dir), std::string::npos) << r.out;
  const json sm = json::parse(read_file(dir + "/server_metrics_export.json"));
  const std::string page_url = mock.url() + "/metrics";
  EXPECT_EQ(sm["summary"]["endpoints_successful"][0], page_url);
  EXPECT_GE(sm["summary"]["endpoint_info"][page_url]["total_fetches"].get<int>(), 5)
      << "probe, baseline, about three during the 1 s run, the flush and the final scrape";
  // The baseline precedes the first request and the final scrape follows the last response, so
  // the counter's change is exactly what this run sent.
  const auto& requests = sm["metrics"]["inferperf_mock_requests"];
  EXPECT_EQ(requests["type"], "counter");
  EXPECT_DOUBLE_EQ(requests["series"][0]["stats"]["total"].get<double>(), 40.0);
  const json summary = json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_FALSE(summary.contains("telemetry_data"));
  EXPECT_EQ(summary["request_count"]["avg"], 40);

  const std::string csv = read_file(dir + "/server_metrics_export.csv");
  EXPECT_EQ(csv.rfind("Endpoint,Type,Metric,Unit,avg,", 0), 0u) << csv;
  EXPECT_NE(csv.find(page_url + ",counter,inferperf_mock_requests,requests,40.00,"),
            std::string::npos)
      << csv;
  const auto lines = read_jsonl(dir + "/server_metrics_export.jsonl");
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines.back()["metrics"]["inferperf_mock_requests"][0]["value"], 40.0);
  EXPECT_FALSE(fs::exists(dir + "/gpu_telemetry_export.jsonl"));
}

// AIPerf 0.11's server-metrics JSON: endpoint_info with update stamps, per-series timeslices,
// and families without a usable TYPE as "unknown". The second page is a static OpenMetrics file
// served through the mock's Hub emulation: an untyped family, a TYPE-less one, a NaN sample.
TEST(ServerMetrics, EndpointInfoTimeslicesAndUnknownFamilies) {
  const std::string hub = make_temp_dir("ip-srvmetrics-hub-");
  fs::create_directories(hub + "/static/page");
  std::ofstream(hub + "/static/page/metrics.txt")
      << "# HELP engine_sleep_state Sleep state.\n# TYPE engine_sleep_state unknown\n"
         "engine_sleep_state{state=\"awake\"} 1\n"
         "engine_queue_depth 3\n"
         "# TYPE engine_occupancy gauge\nengine_occupancy NaN\n# EOF\n";
  MockServerProcess mock({"--ttft", "5", "--itl", "1", "--hub-dir", hub});
  const std::string dir = make_temp_dir("ip-srvmetrics-slices-");
  const std::string page = mock.url() + "/metrics";
  const std::string page2 = mock.url() + "/static/page/resolve/main/metrics.txt";
  auto r =
      run_process(server_counted_profile_args(mock, dir,
                                              {"--request-rate", "40", "--benchmark-duration", "2",
                                               "--slice-duration", "1", "--server-metrics", page2}),
                  std::chrono::seconds(90));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json sm = json::parse(read_file(dir + "/server_metrics_export.json"));
  EXPECT_EQ(sm["schema_version"], "1.0");
  const auto& info = sm["summary"]["endpoint_info"][page];
  std::vector<std::string> keys;  // in file order
  const auto ordered =
      nlohmann::ordered_json::parse(read_file(dir + "/server_metrics_export.json"));
  for (const auto& [k, v] : ordered["summary"]["endpoint_info"][page].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "total_fetches", "first_fetch_ns", "last_fetch_ns", "avg_fetch_latency_ms",
                      "unique_updates", "first_update_ns", "last_update_ns", "duration_seconds",
                      "avg_update_interval_ms", "median_update_interval_ms"}));
  EXPECT_GE(info["unique_updates"].get<int>(), 3) << "traffic changes the page every scrape";
  EXPECT_LE(info["unique_updates"], info["total_fetches"]);
  EXPECT_EQ(info["first_update_ns"], info["first_fetch_ns"]);  // the first fetch is an update
  EXPECT_GT(info["last_update_ns"].get<long long>(), info["first_update_ns"].get<long long>());
  EXPECT_NEAR(
      info["duration_seconds"].get<double>(),
      (info["last_update_ns"].get<long long>() - info["first_update_ns"].get<long long>()) / 1e9,
      1e-6);
  EXPECT_FALSE(info["median_update_interval_ms"].is_null());
  const auto& still = sm["summary"]["endpoint_info"][page2];
  EXPECT_EQ(still["unique_updates"], 1) << "an unchanging page is one update";
  EXPECT_TRUE(still["median_update_interval_ms"].is_null());

  // Counter and histogram slices add up to the window's totals; only the last may be partial.
  const auto& requests = sm["metrics"]["inferperf_mock_requests"]["series"][0];
  const auto& slices = requests["timeslices"];
  ASSERT_GE(slices.size(), 2u) << requests.dump(1);
  double total = 0;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    total += slices[i]["total"].get<double>();
    EXPECT_EQ(slices[i]["end_ns"].get<long long>() - slices[i]["start_ns"].get<long long>() ==
                  1'000'000'000LL,
              !slices[i].contains("is_complete"));
    if (i + 1 < slices.size()) {
      EXPECT_FALSE(slices[i].contains("is_complete"));
    }
  }
  EXPECT_DOUBLE_EQ(total, requests["stats"]["total"].get<double>());
  const auto& ttft = sm["metrics"]["inferperf_mock_time_to_first_token_seconds"]["series"][0];
  double count = 0;
  for (const auto& s : ttft["timeslices"]) {
    count += s["count"].get<double>();
    EXPECT_TRUE(s["buckets"].contains("+Inf"));
  }
  EXPECT_DOUBLE_EQ(count, ttft["stats"]["count"].get<double>());
  const auto& in_flight = sm["metrics"]["inferperf_mock_in_flight"]["series"][0]["timeslices"];
  ASSERT_FALSE(in_flight.empty());
  EXPECT_TRUE(in_flight[0].contains("avg") && in_flight[0].contains("max"));

  for (const char* name : {"engine_sleep_state", "engine_queue_depth"}) {
    const auto& m = sm["metrics"][name];
    EXPECT_EQ(m["type"], "unknown") << name;
    EXPECT_EQ(m["series"][0]["endpoint_url"], page2);
    EXPECT_TRUE(m["series"][0]["stats"].contains("p50")) << "gauge-shaped";
  }
  EXPECT_DOUBLE_EQ(sm["metrics"]["engine_queue_depth"]["series"][0]["stats"]["avg"].get<double>(),
                   3.0);
  EXPECT_FALSE(sm["metrics"].contains("engine_occupancy")) << "a NaN sample is no reading";
}

TEST(ServerMetrics, OffWithNoServerMetricsAndParquetRefused) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-srvmetrics-off-");
  auto r = run_process(
      server_counted_profile_args(mock, dir, {"--request-count", "5", "--no-server-metrics"}),
      std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(fs::exists(dir + "/server_metrics_export.json"));
  EXPECT_FALSE(fs::exists(dir + "/server_metrics_export.csv"));

  auto p = run_process(
      server_counted_profile_args(mock, dir + "/p", {"--server-metrics-formats", "parquet"}),
      std::chrono::seconds(30));
  EXPECT_EQ(p.exit_code, 2) << p.out;
  EXPECT_NE(p.out.find("no Parquet writer"), std::string::npos) << p.out;
  EXPECT_FALSE(fs::exists(dir + "/p/profile_export_aiperf.json"));

  auto both = run_process(
      server_counted_profile_args(mock, dir + "/b", {"--server-metrics", "--no-server-metrics"}),
      std::chrono::seconds(30));
  EXPECT_EQ(both.exit_code, 2) << both.out;
  auto gpu_both = run_process(
      server_counted_profile_args(mock, dir + "/g", {"--gpu-telemetry", "--no-gpu-telemetry"}),
      std::chrono::seconds(30));
  EXPECT_EQ(gpu_both.exit_code, 2) << gpu_both.out;
  EXPECT_NE(gpu_both.out.find("cannot be used together"), std::string::npos);
  auto mixed = run_process(
      server_counted_profile_args(mock, dir + "/m", {"--gpu-telemetry", "nvml", "localhost:9400"}),
      std::chrono::seconds(30));
  EXPECT_EQ(mixed.exit_code, 2) << mixed.out;
  // AIPerf 0.11's AMD collector URL: refused by name before any traffic.
  auto amd = run_process(
      server_counted_profile_args(mock, dir + "/a", {"--gpu-telemetry", "amdsmi://localhost"}),
      std::chrono::seconds(30));
  EXPECT_EQ(amd.exit_code, 2) << amd.out;
  EXPECT_NE(amd.out.find("amdsmi://localhost: AMD GPUs (amdsmi) are not supported"),
            std::string::npos)
      << amd.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 5) << "only the first run's requests";
}

TEST(GpuTelemetry, DcgmPagesOfTheMockAreSummarisedAndExported) {
  MockServerProcess mock({"--itl", "1", "--ttft", "5", "--dcgm-num-gpus", "2"});
  const std::string dir = make_temp_dir("ip-dcgm-");
  const std::string dcgm = mock.url() + "/dcgm1/metrics";
  // --gpu-telemetry takes its values up to the next option; an unreachable URL is skipped.
  auto r = run_process(
      server_counted_profile_args(mock, dir,
                                  {"--gpu-telemetry", dcgm, "127.0.0.1:1", "--concurrency", "4",
                                   "--benchmark-duration", "1.5"}),
      std::chrono::seconds(90));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("127.0.0.1:1/metrics is unreachable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1/2 DCGM endpoints reachable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPU Telemetry Summary"), std::string::npos);
  EXPECT_NE(r.out.find("GPU Telemetry Export: " + dir), std::string::npos);

  const json summary = json::parse(read_file(dir + "/profile_export_aiperf.json"));
  ASSERT_TRUE(summary.contains("telemetry_data")) << summary.dump(1);
  const auto& t = summary["telemetry_data"];
  EXPECT_EQ(t["summary"]["endpoints_successful"], json::array({dcgm}));
  const std::string key = "127.0.0.1:" + std::to_string(mock.port()) + "/dcgm1";
  const auto& gpus = t["endpoints"][key]["gpus"];
  ASSERT_EQ(gpus.size(), 2u) << t.dump(1);
  const auto& g0 = gpus["gpu_0"];
  EXPECT_EQ(g0["gpu_index"], 0);
  EXPECT_FALSE(g0["gpu_uuid"].get<std::string>().empty());
  const auto& m = g0["metrics"];
  EXPECT_EQ(m["gpu_power_usage"]["unit"], "W");
  EXPECT_GT(m["gpu_power_usage"]["avg"].get<double>(), 0.0);
  EXPECT_GT(m["gpu_utilization"]["max"].get<double>(), 5.0) << "load followed the traffic";
  EXPECT_EQ(m["energy_consumption"]["unit"], "MJ");
  EXPECT_GT(m["energy_consumption"]["avg"].get<double>(), 0.0);
  EXPECT_EQ(m["gpu_memory_used"]["unit"], "GB");

  const std::string csv = read_file(dir + "/profile_export_aiperf.csv");
  EXPECT_NE(csv.find("\r\n\r\n\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(key + ",1,"), std::string::npos);

  const auto lines = read_jsonl(dir + "/gpu_telemetry_export.jsonl");
  ASSERT_GE(lines.size(), 4u) << "2 GPUs, at least baseline and final scrapes";
  EXPECT_EQ(lines[0]["dcgm_url"], dcgm);
  EXPECT_TRUE(lines[0]["telemetry_data"].contains("gpu_power_usage"));
  for (std::size_t i = 1; i < lines.size(); ++i)
    EXPECT_GE(lines[i]["timestamp_ns"].get<long long>(),
              lines[i - 1]["timestamp_ns"].get<long long>());

  // analyze rebuilds the summary, telemetry_data included, from the artifact folder.
  const std::string before = read_file(dir + "/profile_export_aiperf.csv");
  auto a = run_process({INFERPERF_BIN, "analyze", dir}, std::chrono::seconds(60));
  ASSERT_EQ(a.exit_code, 0) << a.out;
  EXPECT_EQ(read_file(dir + "/profile_export_aiperf.csv"), before);
}

TEST(GpuTelemetry, DefaultEndpointsAreCollectedQuietly) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-dcgm-default-");
  auto r = run_process(
      server_counted_profile_args(mock, dir, {"--request-count", "20"}), std::chrono::seconds(60),
      "",
      {"AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS=" + mock.url() + "/dcgm1/metrics,http://127.0.0.1:1"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find("unreachable"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("GPU Telemetry Summary"), std::string::npos) << "only with --gpu-telemetry";
  EXPECT_TRUE(fs::exists(dir + "/gpu_telemetry_export.jsonl"));

  // --gpu-telemetry with no value, before other options: the defaults plus the console summary.
  const std::string dir2 = make_temp_dir("ip-dcgm-flag-");
  std::vector<std::string> args = {INFERPERF_BIN,
                                   "profile",
                                   "--gpu-telemetry",
                                   "-m",
                                   "mock-model",
                                   "-u",
                                   mock.url(),
                                   "--artifact-dir",
                                   dir2,
                                   "--isl",
                                   "16",
                                   "--request-rate",
                                   "20",
                                   "--benchmark-duration",
                                   "1",
                                   "--use-server-token-count"};
  auto r2 = run_process(args, std::chrono::seconds(60), "",
                        {"AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS=" + mock.url() + "/dcgm2/metrics"});
  ASSERT_EQ(r2.exit_code, 0) << r2.out;
  EXPECT_NE(r2.out.find("1/1 DCGM endpoints reachable"), std::string::npos) << r2.out;
  EXPECT_NE(r2.out.find("GPU Telemetry Summary"), std::string::npos);

  // A run shorter than one scrape interval says why it has no summary.
  const std::string dir3 = make_temp_dir("ip-dcgm-short-");
  auto r3 = run_process(
      server_counted_profile_args(
          mock, dir3, {"--request-count", "2", "--gpu-telemetry", mock.url() + "/dcgm1/metrics"}),
      std::chrono::seconds(60), "",
      {"AIPERF_GPU_COLLECTION_INTERVAL=600", "AIPERF_SERVER_METRICS_COLLECTION_INTERVAL=600"});
  ASSERT_EQ(r3.exit_code, 0) << r3.out;
  EXPECT_NE(r3.out.find("1/1 DCGM endpoints reachable, but no sample fell inside"),
            std::string::npos)
      << r3.out;
}

TEST(GpuTelemetry, NvmlStubThroughTheDefaultLibraryName) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-nvml-");
  auto r = run_process(
      server_counted_profile_args(mock, dir,
                                  {"--request-rate", "20", "--benchmark-duration", "1.2",
                                   "--gpu-telemetry", "pynvml", "--no-server-metrics"}),
      std::chrono::seconds(60), "", {std::string("LD_LIBRARY_PATH=") + INFERPERF_NVML_STUB_DIR});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("1/1 NVML sources reachable"), std::string::npos) << r.out;
  const json summary = json::parse(read_file(dir + "/profile_export_aiperf.json"));
  const auto& t = summary["telemetry_data"];
  EXPECT_EQ(t["summary"]["endpoints_configured"], json::array({"nvml"}));
  const auto& gpus = t["endpoints"]["nvml"]["gpus"];
  ASSERT_EQ(gpus.size(), 2u) << t.dump(1);
  const auto& m = gpus["gpu_0"]["metrics"];
  // The stub's raw values: 123456 mW, 42e9 bytes used; energy +250,000,000 mJ per read.
  EXPECT_DOUBLE_EQ(m["gpu_power_usage"]["avg"].get<double>(), 123.456);
  EXPECT_DOUBLE_EQ(m["gpu_memory_used"]["avg"].get<double>(), 42.0);
  const double energy = m["energy_consumption"]["avg"].get<double>();
  EXPECT_GT(energy, 0.0);
  EXPECT_NEAR(std::remainder(energy, 0.25), 0.0, 1e-6) << "whole reads of 0.25 MJ each";
  EXPECT_FALSE(m.contains("sm_utilization"));
  const auto lines = read_jsonl(dir + "/gpu_telemetry_export.jsonl");
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0]["dcgm_url"], "nvml");

  auto missing =
      run_process(server_counted_profile_args(mock, dir + "/none",
                                              {"--request-count", "3", "--gpu-telemetry", "nvml"}),
                  std::chrono::seconds(60), "", {"LD_LIBRARY_PATH=/nonexistent"});
  EXPECT_EQ(missing.exit_code, 0) << missing.out;
  EXPECT_NE(missing.out.find("libnvidia-ml.so.1 not found"), std::string::npos) << missing.out;
}

}  // namespace
}  // namespace inferperf::testing

namespace inferperf::testing {
namespace {

// llama.cpp-style per-request timings from the mock (--timings) are joined to the client's
// timestamps: the server's prefill is the mock's TTFT wait, and what remains of the client's
// latency is network plus client time.
TEST(ServerTimings, JoinedPerRequestStreamingAndNot) {
  MockServerProcess mock({"--timings", "--ttft", "30", "--itl", "2"});
  for (const bool streaming : {true, false}) {
    const std::string dir = make_temp_dir("ip-timings-");
    std::vector<std::string> args = {INFERPERF_BIN,
                                     "profile",
                                     "-m",
                                     "mock-model",
                                     "-u",
                                     mock.url(),
                                     "--artifact-dir",
                                     dir,
                                     "--isl",
                                     "16",
                                     "--osl",
                                     "20",
                                     "--extra-inputs",
                                     "ignore_eos:true",
                                     "--request-count",
                                     "8",
                                     "--concurrency",
                                     "2",
                                     "--no-server-metrics",
                                     "--use-server-token-count"};
    if (streaming) args.push_back("--streaming");
    auto r = run_process(args, std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("Server Timings"), std::string::npos) << r.out;
    const json s = json::parse(read_file(dir + "/profile_export_aiperf.json"));
    ASSERT_TRUE(s.contains("server_prefill_time")) << s.dump(1);
    EXPECT_EQ(s["server_prefill_time"]["count"], 8);
    const double prefill = s["server_prefill_time"]["avg"].get<double>();
    EXPECT_GE(prefill, 29.0);
    EXPECT_LT(prefill, 200.0);
    const double decode = s["server_decode_time"]["avg"].get<double>();
    EXPECT_GE(decode, 19 * 2.0 - 1.0) << "19 gaps of 2 ms after the first token";
    const double server = s["server_time"]["avg"].get<double>();
    EXPECT_NEAR(server, prefill + decode, 1e-6);
    const double latency = s["request_latency"]["avg"].get<double>();
    const double overhead = s["client_overhead_time"]["avg"].get<double>();
    EXPECT_NEAR(overhead, latency - server, 1e-3);
    EXPECT_LT(std::abs(overhead), 100.0) << "loopback adds little to the server's own time";
    EXPECT_EQ(s.contains("server_ttft_overhead"), streaming);
    // Per record too.
    const auto lines = read_jsonl(dir + "/profile_export.jsonl");
    ASSERT_EQ(lines.size(), 8u);
    EXPECT_TRUE(lines[0]["metrics"].contains("server_prefill_time")) << lines[0].dump();
  }
}

}  // namespace
}  // namespace inferperf::testing

namespace inferperf::testing {
namespace {

// An engine page (the mock's vLLM flavour) scraped as an extra --server-metrics URL: histograms
// estimated from real bucket deltas, counters equal to what the run sent, escaped labels intact.
TEST(ServerMetrics, EnginePageHistogramsAndEscapedLabels) {
  MockServerProcess mock({"--ttft", "20", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-vllm-page-");
  const std::string page = mock.url() + "/vllm/metrics";
  auto r = run_process(
      server_counted_profile_args(mock, dir,
                                  {"--request-count", "12", "--concurrency", "3", "--extra-inputs",
                                   "ignore_eos:true", "--server-metrics", page}),
      std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json sm = json::parse(read_file(dir + "/server_metrics_export.json"));
  EXPECT_EQ(sm["summary"]["endpoints_successful"].size(), 2u) << "the --url page and the extra one";
  const auto& ttft = sm["metrics"]["vllm:time_to_first_token_seconds"];
  ASSERT_EQ(ttft["type"], "histogram") << sm["metrics"].dump(1).substr(0, 2000);
  EXPECT_EQ(ttft["unit"], "seconds");
  const auto& stats = ttft["series"][0]["stats"];
  EXPECT_DOUBLE_EQ(stats["count"].get<double>(), 12.0);
  const double p50 = stats["p50_estimate"].get<double>();
  EXPECT_GT(p50, 0.005);
  EXPECT_LT(p50, 0.5);
  EXPECT_NEAR(stats["avg"].get<double>(), stats["sum"].get<double>() / 12.0, 1e-12);
  EXPECT_EQ(ttft["series"][0]["labels"]["model_name"], "mock-model");
  const auto& gen = sm["metrics"]["vllm:generation_tokens"]["series"][0]["stats"];
  EXPECT_DOUBLE_EQ(gen["total"].get<double>(), 12 * 8.0) << "--osl 8 per request";
  const auto& info = sm["metrics"]["inferperf_mock_model_info"];
  ASSERT_EQ(info["type"], "info");
  bool found = false;
  for (const auto& s : info["series"]) {
    if (s["endpoint_url"] != page) continue;
    found = true;
    EXPECT_EQ(s["labels"]["weights_path"], "C:\\models\\\"mock\"\\weights");
    EXPECT_EQ(s["labels"]["note"], "served by inferperf-mock-server\nnot a real engine");
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace inferperf::testing

namespace inferperf::testing {
namespace {

TEST(GpuTelemetry, BadCustomMetricsCsvExitsTwoWritingNothing) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-dcgm-csv-");
  const std::string csv = dir + "/custom.csv";
  {
    std::ofstream out(csv);
    out << "# DCGM FIELD, Prometheus metric type, help message\n"
           "DCGM_FI_DEV_SM_CLOCK, gauge, SM clock\n"
           "DCGM_FI_DEV_MEM_CLOCK, histogram, memory clock\n";
  }
  const std::string art = dir + "/art";
  auto r = run_process(
      server_counted_profile_args(mock, art, {"--request-count", "2", "--gpu-telemetry", csv}),
      std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("custom.csv"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("custom.csv:3: field 'type'"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(art + "/inputs.json"));
  EXPECT_FALSE(fs::exists(art + "/profile_export_aiperf.json"));
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

}  // namespace
}  // namespace inferperf::testing
