// The readiness wait (--wait-for-model-*) against a mock still loading its model (--ready-after),
// and the network-latency adjustment (--network-latency-automatic / --network-latency-mean).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

// How long the mock says it is loading: longer than the client's own start (several seconds under
// sanitizers), so its first probes are answered 503.
constexpr const char* kReadyAfter = INFERPERF_SANITIZER_BUILD ? "6" : "2";

// The usual small run (ISL 16, OSL 8) of `requests` requests, two at a time, then `more`.
std::vector<std::string> readiness_run(const MockServerProcess& mock, const std::string& dir,
                                       const std::vector<std::string>& more,
                                       const std::string& requests = "4") {
  std::vector<std::string> args =
      mock_profile_args(INFERPERF_BIN, mock, dir,
                        {"--request-count", requests, "--concurrency", "2", "--ui-type", "none"});
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(ReadinessWait, WaitsUntilTheModelIsLoaded) {
  MockServerProcess mock({"--fast", "--ready-after", kReadyAfter});
  const std::string dir = make_temp_dir("ip-ready-") + "/run";
  auto r = run_process(
      readiness_run(mock, dir,
                    {"--wait-for-model-timeout", "10", "--wait-for-model-interval", "0.2"}),
      std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto s = load_summary(dir);
  EXPECT_EQ(summary_count(s, "request_count"), 4);
  EXPECT_EQ(summary_count(s, "error_request_count"), 0);
  // Several probes were answered 503 before one passed, each attempt logged.
  EXPECT_NE(r.out.find("waiting for model 'mock-model'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attempt 2: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("HTTP 503"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("model 'mock-model' at http://127.0.0.1:"), std::string::npos) << r.out;
  EXPECT_EQ(s["input_config"]["endpoint"]["wait_for_model_timeout"], 10.0);
}

TEST(ReadinessWait, ModelsModeReadsTheModelList) {
  MockServerProcess mock({"--fast", "--ready-after", kReadyAfter});
  const std::string dir = make_temp_dir("ip-ready-models-") + "/run";
  auto r = run_process(readiness_run(mock, dir,
                                     {"--wait-for-model-timeout", "10", "--wait-for-model-mode",
                                      "models", "--wait-for-model-interval", "0.2"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("/v1/models answered HTTP 503"), std::string::npos) << r.out;
  EXPECT_EQ(summary_count(load_summary(dir), "error_request_count"), 0);
}

TEST(ReadinessWait, BothModeAsksTheListThenTheModel) {
  // The list is served at once, inference only after kReadyAfter seconds: both steps are needed.
  MockServerProcess mock({"--fast", "--inference-ready-delay-seconds", kReadyAfter});
  const std::string dir = make_temp_dir("ip-ready-both-") + "/run";
  auto r = run_process(readiness_run(mock, dir,
                                     {"--wait-for-model-timeout", "10", "--wait-for-model-mode",
                                      "both", "--wait-for-model-interval", "0.2"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::size_t listed = r.out.find("/v1/models answered HTTP 200");
  const std::size_t loading = r.out.find("/v1/chat/completions answered HTTP 503");
  ASSERT_NE(listed, std::string::npos) << r.out;
  ASSERT_NE(loading, std::string::npos) << r.out;
  EXPECT_LT(listed, loading) << r.out;
  EXPECT_EQ(summary_count(load_summary(dir), "error_request_count"), 0);
}

TEST(ReadinessWait, TimesOutFastWithAClearError) {
  MockServerProcess mock({"--fast", "--ready-after", "600"});
  const std::string dir = make_temp_dir("ip-ready-never-") + "/run";
  auto r = run_process(readiness_run(mock, dir, {"--wait-for-model-timeout", "0.5"}),
                       std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_LT(r.wall_s, INFERPERF_SANITIZER_BUILD ? 30.0 : 10.0) << r.out;
  EXPECT_NE(r.out.find("error: timed out waiting for model 'mock-model'"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("not ready within 0.5 s (--wait-for-model-timeout"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("answered HTTP 503"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir)) << "nothing is written before the model is ready";
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);  // the run never started
}

// stats of a summary metric object, by key.
double stat(const nlohmann::json& s, const char* tag, const char* key) {
  return s.at(tag).at(key).get<double>();
}

TEST(NetworkLatency, AutomaticProbesAndAdjustedMetrics) {
  MockServerProcess mock({"--ttft", "5", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-netlat-") + "/run";
  auto r = run_process(
      readiness_run(mock, dir,
                    {"--streaming", "--network-latency-automatic",
                     "--network-latency-ping-interval", "0.1", "--profile-export-prefix", "nl"},
                    "30"),
      std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto lines = read_lines(dir + "/nl_network_latency.jsonl");
  ASSERT_GE(lines.size(), 1u);
  double sum = 0;
  for (const auto& line : lines) {
    const auto p = nlohmann::ordered_json::parse(line);
    std::vector<std::string> keys;
    for (const auto& [k, v] : p.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"timestamp_ns", "target_url", "target_host",
                                              "target_port", "probe_type", "rtt_ns", "success"}))
        << line;
    EXPECT_EQ(p["target_host"], "127.0.0.1");
    EXPECT_EQ(p["target_port"], mock.port());
    EXPECT_EQ(p["probe_type"], "tcp_connect");
    EXPECT_EQ(p["success"], true);
    EXPECT_GT(p["rtt_ns"].get<double>(), 0);
    sum += p["rtt_ns"].get<double>();
  }
  const auto s = nlohmann::json::parse(read_file(dir + "/nl.json"));
  EXPECT_NEAR(stat(s, "network_rtt", "avg"), sum / static_cast<double>(lines.size()) / 1e6, 1e-6);
  for (const char* tag :
       {"network_adjusted_request_latency", "network_adjusted_time_to_first_token",
        "network_adjusted_time_to_first_output_token"}) {
    ASSERT_TRUE(s.contains(tag)) << tag;
    EXPECT_FALSE(s[tag].contains("count")) << tag;
    EXPECT_EQ(s[tag]["unit"], "ms");
  }
  EXPECT_LE(stat(s, "network_adjusted_request_latency", "avg"), stat(s, "request_latency", "avg"));
  const std::string csv = read_file(dir + "/nl.csv");
  EXPECT_NE(csv.find("Network-Adjusted Request Latency (ms)"), std::string::npos) << csv;
  EXPECT_NE(csv.find("Network RTT (ms)"), std::string::npos) << csv;
}

TEST(NetworkLatency, FixedMeanIsTakenOffEveryValueFloored) {
  // TTFT ~2 ms is far below the 100 ms round trip (floored to 0, with a warning), also on a slow
  // sanitizer machine; latency ~210 ms (8 tokens, 30 ms apart) is not.
  MockServerProcess mock({"--ttft", "2", "--itl", "30"});
  const std::string dir = make_temp_dir("ip-netmean-") + "/run";
  auto r = run_process(readiness_run(mock, dir, {"--streaming", "--network-latency-mean", "100"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto s = load_summary(dir);
  EXPECT_DOUBLE_EQ(stat(s, "network_rtt", "avg"), 100.0);
  EXPECT_EQ(s["input_config"]["network_latency"],
            nlohmann::json::parse(R"({"enabled":true,"mean_ms":100.0})"));
  for (const char* key : {"avg", "min", "max", "p1", "p50", "p90", "p99"}) {
    EXPECT_NEAR(stat(s, "network_adjusted_request_latency", key),
                std::max(0.0, stat(s, "request_latency", key) - 100.0), 1e-6)
        << key;
  }
  // Floored values: the extremes move as the values do (an average or an interpolated percentile
  // of floored values is not the floored statistic).
  for (const char* key : {"min", "max"}) {
    EXPECT_NEAR(stat(s, "network_adjusted_time_to_first_token", key),
                std::max(0.0, stat(s, "time_to_first_token", key) - 100.0), 1e-6)
        << key;
  }
  EXPECT_DOUBLE_EQ(stat(s, "network_adjusted_time_to_first_token", "min"), 0.0);
  EXPECT_NE(r.out.find("network_adjusted_time_to_first_token: "), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/profile_export_network_latency.jsonl"));
}

}  // namespace
}  // namespace inferperf::testing
