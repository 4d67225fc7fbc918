// Live observability end to end: the OTLP push (--otel-url) checked by a small OTLP/HTTP receiver
// in the test, a dead collector (one warning, no wait), and the client's Prometheus endpoint
// (--prometheus-port) scraped during a run and read with the project's own parser.
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "process.hpp"
#include "telemetry/prometheus.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// Accepts POSTs, answers 200 and keeps each body with its request line.
class OtlpReceiver {
 public:
  int port() const { return server_.port(); }
  std::vector<std::pair<std::string, std::string>> posts() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& r : server_.requests())
      out.emplace_back(r.method + " " + r.target + " HTTP/1.1", r.body);
    return out;
  }

 private:
  FakeHttpServer server_{[](const FakeHttpRequest&) { return FakeHttpReply{}; }};
};

const json* observe_metric(const json& body, const std::string& name) {
  for (const auto& m : body["resourceMetrics"][0]["scopeMetrics"][0]["metrics"])
    if (m["name"] == name) return &m;
  return nullptr;
}

std::string observe_attr(const json& point, const std::string& key) {
  for (const auto& a : point["attributes"])
    if (a["key"] == key) return a["value"]["stringValue"];
  return {};
}

// The profiling data point of a metric (histogram, sum or gauge).
const json* observe_profiling_point(const json& metric, const char* kind) {
  for (const auto& p : metric[kind]["dataPoints"])
    if (observe_attr(p, "aiperf.benchmark_phase") == "profiling") return &p;
  return nullptr;
}

TEST(OtlpExport, LiveAndFinalPushesMatchTheRun) {
  MockServerProcess mock({"--fast"});
  OtlpReceiver receiver;
  const std::string dir = make_temp_dir("ip-otlp-");
  auto r = run_process(
      server_counted_profile_args(mock, dir,
                                  {"--request-count", "40", "--request-rate", "40", "--otel-url",
                                   "127.0.0.1:" + std::to_string(receiver.port()),
                                   "--otel-resource-attributes", "team=perf"}),
      90s, "", {"INFERPERF_OTEL_INTERVAL_MS=200"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto posts = receiver.posts();
  ASSERT_GE(posts.size(), 2u) << "live and final pushes\n" << r.out;
  EXPECT_EQ(posts.back().first, "POST /v1/metrics HTTP/1.1");
  const json last = json::parse(posts.back().second);
  bool team = false;
  for (const auto& a : last["resourceMetrics"][0]["resource"]["attributes"])
    team = team || (a["key"] == "team" && a["value"]["stringValue"] == "perf");
  EXPECT_TRUE(team);
  const struct {
    const char* name;
    const char* unit;
  } kHistograms[] = {{"gen_ai.client.operation.duration", "s"},
                     {"gen_ai.client.token.usage", "{token}"},
                     {"gen_ai.client.operation.time_to_first_chunk", "s"},
                     {"gen_ai.client.operation.time_per_output_chunk", "s"}};
  for (const auto& h : kHistograms) {
    const json* m = observe_metric(last, h.name);
    ASSERT_NE(m, nullptr) << h.name;
    EXPECT_EQ((*m)["unit"], h.unit) << h.name;
    const json* p = observe_profiling_point(*m, "histogram");
    ASSERT_NE(p, nullptr) << h.name;
    EXPECT_EQ(observe_attr(*p, "gen_ai.operation.name"), "chat");
    EXPECT_EQ(observe_attr(*p, "gen_ai.provider.name"), "openai");
    EXPECT_EQ(observe_attr(*p, "gen_ai.request.model"), "mock-model");
  }
  const json* duration = observe_profiling_point(
      *observe_metric(last, "gen_ai.client.operation.duration"), "histogram");
  EXPECT_EQ((*duration)["count"], "40");
  const json* completed = observe_metric(last, "aiperf.timing.requests.completed");
  ASSERT_NE(completed, nullptr);
  EXPECT_EQ((*observe_profiling_point(*completed, "sum"))["asInt"], "40");
  const json* in_flight = observe_metric(last, "aiperf.timing.requests.in_flight");
  ASSERT_NE(in_flight, nullptr);
  EXPECT_EQ((*observe_profiling_point(*in_flight, "gauge"))["asInt"], "0");
}

TEST(OtlpExport, DeadCollectorCostsOneWarningAndNoWait) {
  MockServerProcess mock({"--fast"});
  const std::string base_dir = make_temp_dir("ip-otlp-base-");
  const auto base =
      run_process(server_counted_profile_args(mock, base_dir, {"--request-count", "20"}), 90s);
  ASSERT_EQ(base.exit_code, 0) << base.out;
  const std::string dir = make_temp_dir("ip-otlp-dead-");
  const std::string url = "127.0.0.1:" + std::to_string(unused_loopback_port());
  const auto r = run_process(
      server_counted_profile_args(mock, dir, {"--request-count", "20", "--otel-url", url}), 90s, "",
      {"INFERPERF_OTEL_INTERVAL_MS=100"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::size_t warnings = 0;
  for (auto at = r.out.find("OTLP metrics export to"); at != std::string::npos;
       at = r.out.find("OTLP metrics export to", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.out;
  EXPECT_NE(r.out.find("http://" + url + "/v1/metrics"), std::string::npos) << r.out;
  EXPECT_LT(r.wall_s, base.wall_s + 2.5) << "the final push waited on the dead collector";
}

TEST(PrometheusEndpoint, ScrapedDuringTheRun) {
  MockServerProcess mock({"--itl", "20"});
  const std::string dir = make_temp_dir("ip-prom-");
  const int port = unused_loopback_port();
  BackgroundProcess run(
      server_counted_profile_args(mock, dir,
                                  {"--benchmark-duration", "4", "--concurrency", "4",
                                   "--prometheus-port", std::to_string(port)}),
      dir + "/out.txt");
  std::vector<double> completed;
  telemetry::Page page;
  for (int i = 0; i < 200 && completed.size() < 2; ++i) {
    std::this_thread::sleep_for(100ms);
    HttpReply reply;
    try {
      reply = http_get(port, "/metrics");
    } catch (const std::exception&) {
      continue;  // not listening yet (set-up) or any more (the run is over)
    }
    if (reply.status != 200) continue;
    page = telemetry::parse_prometheus(reply.body);
    const telemetry::Family* f =
        page.find("inferperf_requests_completed");  // counters: the family drops _total
    if (!f) continue;
    for (const auto& s : f->samples) {
      if (s.labels == telemetry::Labels{{"phase", "profiling"}} && s.value > 0 &&
          (completed.empty() || s.value > completed.back()))
        completed.push_back(s.value);
    }
  }
  ASSERT_GE(completed.size(), 2u) << "the counter did not move\n" << read_file(dir + "/out.txt");
  EXPECT_EQ(page.skipped_lines, 0) << page.first_problem;
  for (const char* name :
       {"inferperf_time_to_first_token_seconds", "inferperf_inter_token_latency_seconds",
        "inferperf_request_latency_seconds"}) {
    const telemetry::Family* f = page.find(name);
    ASSERT_NE(f, nullptr) << name;
    for (const auto& h : telemetry::histograms_of(*f)) {
      double previous = 0;
      for (const auto& [le, n] : h.buckets) {
        EXPECT_GE(n, previous) << name;
        previous = n;
      }
      ASSERT_FALSE(h.buckets.empty());
      EXPECT_TRUE(std::isinf(h.buckets.back().first)) << name;
      EXPECT_EQ(h.buckets.back().second, h.count) << name;
    }
  }
  ASSERT_NE(page.find("inferperf_requests_sent"), nullptr);
  ASSERT_NE(page.find("inferperf_requests_in_flight"), nullptr);
  EXPECT_EQ(run.wait(60s), 0) << read_file(dir + "/out.txt");
}

TEST(PrometheusEndpoint, PortInUseIsAConfigurationError) {
  MockServerProcess mock({"--fast"});
  int port = 0;
  const int held = listen_loopback(port);
  const std::string dir = make_temp_dir("ip-prom-busy-");
  const auto r = run_process(
      server_counted_profile_args(
          mock, dir, {"--request-count", "5", "--prometheus-port", std::to_string(port)}),
      60s);
  ::close(held);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--prometheus-port"), std::string::npos) << r.out;
  // Refused before the benchmark's requests (the preflight probe has gone by then).
  EXPECT_LE(mock.metric("inferperf_mock_requests_total"), 1) << "benchmark traffic was sent";
}

}  // namespace
}  // namespace inferperf::testing
