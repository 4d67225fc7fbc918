// Live observability end to end: the OTLP push (--otel-url) checked by a small OTLP/HTTP receiver
// in the test, a dead collector (one warning, no wait), and the client's Prometheus endpoint
// (--prometheus-port) scraped during a run and read with the project's own parser.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
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

int observe_listen(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 16) != 0) {
    ::close(fd);
    return -1;
  }
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return fd;
}

// A loopback port nothing listens on (bound once, then closed).
int observe_free_port() {
  int port = 0;
  ::close(observe_listen(port));
  return port;
}

// Accepts POSTs, answers 200 and keeps each body with its request line.
class OtlpReceiver {
 public:
  OtlpReceiver() : fd_(observe_listen(port_)) {
    thread_ = std::thread([this] { run(); });
  }
  ~OtlpReceiver() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  std::vector<std::pair<std::string, std::string>> posts() const {
    std::lock_guard lock(mu_);
    return posts_;
  }

 private:
  void run() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      serve(c);
      ::close(c);
    }
  }
  void serve(int c) {
    std::string in;
    char buf[65536];
    std::size_t need = std::string::npos;
    for (;;) {
      const auto head_end = in.find("\r\n\r\n");
      if (head_end != std::string::npos && need == std::string::npos) {
        const auto cl = in.find("Content-Length: ");
        const auto cl_lower = in.find("content-length: ");
        const auto at = cl != std::string::npos ? cl : cl_lower;
        need = head_end + 4 + (at == std::string::npos ? 0 : std::stoul(in.substr(at + 16)));
      }
      if (need != std::string::npos && in.size() >= need) break;
      const ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) return;
      in.append(buf, static_cast<std::size_t>(n));
    }
    const auto head_end = in.find("\r\n\r\n");
    {
      std::lock_guard lock(mu_);
      posts_.emplace_back(in.substr(0, in.find("\r\n")), in.substr(head_end + 4));
    }
    const std::string reply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
    ::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
  }

  int port_ = 0;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> posts_;
  std::thread thread_;
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
  const std::string url = "127.0.0.1:" + std::to_string(observe_free_port());
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
  const int port = observe_free_port();
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
  const int held = observe_listen(port);
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
