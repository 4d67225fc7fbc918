#include "telemetry/collector.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "transport/http_get.hpp"

namespace inferperf::telemetry {
namespace {

using namespace std::chrono_literals;

// A TCP port that accepts connections (through the kernel's backlog) and never answers.
class SilentListener {
 public:
  SilentListener() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd_, 16) != 0)
      throw std::runtime_error("cannot listen");
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~SilentListener() { close(fd_); }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/metrics"; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(HttpGet, SilentServerTimesOutInsteadOfHanging) {
  SilentListener silent;
  transport::GetRequest req;
  req.url = silent.url();
  req.timeout = std::chrono::seconds(1);
  const auto t0 = std::chrono::steady_clock::now();
  auto res = transport::http_get(req);
  ASSERT_FALSE(res);
  EXPECT_LT(seconds_since(t0), 10.0);
  EXPECT_NE(res.error().message.find("GET " + silent.url()), std::string::npos)
      << res.error().message;
}

TEST(Collector, SilentEndpointIsSkippedAfterItsProbe) {
  SilentListener silent;
  core::SteadyClock clock;
  CollectorOptions o;
  o.server_urls = {silent.url()};
  o.probe_timeout_s = 1;
  o.interval_s = 0.05;
  TelemetryCollector c(clock, o);
  const auto t0 = std::chrono::steady_clock::now();
  c.start();
  c.scrape_now();
  c.scrape_now();
  c.stop();
  EXPECT_LT(seconds_since(t0), 15.0);
  ASSERT_EQ(c.server_endpoints().size(), 1u);
  EXPECT_EQ(c.server_endpoints()[0].reach, Reach::kUnreachable);
  EXPECT_EQ(c.server_endpoints()[0].fetches, 1) << "probed once, then skipped";
  EXPECT_FALSE(c.any_server_reachable());
  EXPECT_TRUE(c.server_logs()[0].scrapes().empty());
}

GpuSample one_gpu(std::int64_t t, double watts) {
  GpuSample s;
  s.mono_ns = t;
  s.source = "fake";
  s[GpuMetric::kPowerUsage] = watts;
  return s;
}

TEST(Collector, ScrapeNowWaitsForAWholeFreshRound) {
  core::SteadyClock clock;
  std::atomic<int> calls{0};
  CollectorOptions o;
  o.interval_s = 3600;  // only the rounds scrape_now asks for, after the first
  o.gpu_sampler = [&](std::int64_t t) {
    std::this_thread::sleep_for(20ms);
    return std::vector<GpuSample>{one_gpu(t, ++calls)};
  };
  TelemetryCollector c(clock, o);
  c.start();
  c.scrape_now();
  const int after_first = calls.load();
  EXPECT_GE(after_first, 1);
  c.scrape_now();
  EXPECT_EQ(calls.load(), after_first + 1);
  c.stop();
  c.stop();  // idempotent
  EXPECT_EQ(c.gpu_samples().size(), static_cast<std::size_t>(calls.load()));
}

TEST(Collector, LiveLinesShowTheLastRoundsGpus) {
  core::SteadyClock clock;
  std::atomic<int> calls{0};
  CollectorOptions o;
  o.interval_s = 3600;
  o.gpu_sampler = [&](std::int64_t t) {
    GpuSample s = one_gpu(t, 100.0 * ++calls);
    s.gpu.model_name = "H200";
    s[GpuMetric::kGpuUtilization] = 87;
    return std::vector<GpuSample>{s};
  };
  TelemetryCollector c(clock, o);
  EXPECT_TRUE(c.live_lines().empty());  // nothing scraped yet
  c.start();
  c.scrape_now();
  c.scrape_now();
  const int n = calls.load();
  const auto lines = c.live_lines();
  c.stop();
  // One line, for the latest round only (not one per sample so far).
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            fmt::format("GPU 0 H200: {} W power, 87 % util, - memory, - temperature", 100 * n));
}

TEST(Collector, ThrowingSamplerCostsOnlyItsOwnRound) {
  core::SteadyClock clock;
  std::atomic<int> calls{0};
  CollectorOptions o;
  o.interval_s = 3600;
  o.gpu_sampler = [&](std::int64_t t) -> std::vector<GpuSample> {
    if (++calls == 1) throw std::runtime_error("driver went away");
    return {one_gpu(t, 1)};
  };
  TelemetryCollector c(clock, o);
  c.start();
  c.scrape_now();  // must return although the first round threw
  c.scrape_now();
  c.stop();
  EXPECT_GE(calls.load(), 2);
  EXPECT_EQ(c.gpu_samples().size(), static_cast<std::size_t>(calls.load() - 1));
}

TEST(Collector, InactiveOrNeverStartedCollectorsStopCleanly) {
  core::SteadyClock clock;
  {
    TelemetryCollector idle(clock, CollectorOptions{});
    EXPECT_FALSE(idle.active());
    idle.start();
    idle.scrape_now();  // returns at once: nothing to scrape
    idle.stop();
  }
  {
    CollectorOptions o;
    o.gpu_sampler = [](std::int64_t t) { return std::vector<GpuSample>{one_gpu(t, 1)}; };
    TelemetryCollector never_started(clock, o);
    EXPECT_TRUE(never_started.active());
  }  // destructor without start()
  {
    CollectorOptions o;
    o.interval_s = 0.01;
    o.gpu_sampler = [](std::int64_t t) { return std::vector<GpuSample>{one_gpu(t, 1)}; };
    TelemetryCollector busy(clock, o);
    busy.start();
    std::this_thread::sleep_for(50ms);
  }  // destructor stops a running collector
}

}  // namespace
}  // namespace inferperf::telemetry
