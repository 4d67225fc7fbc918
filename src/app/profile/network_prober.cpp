#include "app/profile/network_prober.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include "core/secrets.hpp"
#include "report/exporters.hpp"

namespace inferperf::app {

namespace {

namespace asio = boost::asio;

std::int64_t network_wall_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Runs `io` until the connect finished or `timeout_s` passed; returns the connect's error.
template <typename Socket, typename Endpoint>
boost::system::error_code network_timed_connect(asio::io_context& io, Socket& socket,
                                                const Endpoint& endpoint, double timeout_s,
                                                std::chrono::steady_clock::time_point& done) {
  boost::system::error_code result = asio::error::would_block;
  asio::steady_timer timer(io);
  timer.expires_after(std::chrono::milliseconds(static_cast<std::int64_t>(timeout_s * 1000)));
  socket.async_connect(endpoint, [&](const boost::system::error_code& ec) {
    done = std::chrono::steady_clock::now();
    result = ec;
    timer.cancel();
  });
  timer.async_wait([&](const boost::system::error_code& ec) {
    if (!ec) socket.close();
  });
  io.run();
  if (result == asio::error::operation_aborted) result = asio::error::timed_out;
  return result;
}

}  // namespace

report::NetworkProbe probe_network_once(const transport::BaseUrl& url,
                                        const std::string& unix_socket, double timeout_s) {
  report::NetworkProbe p;
  p.timestamp_ns = network_wall_ns();
  p.target_url = core::redact_urls(url.to_string());
  p.target_host = unix_socket.empty() ? url.host : unix_socket;
  p.target_port = unix_socket.empty() ? url.port : 0;
  asio::io_context io;
  std::chrono::steady_clock::time_point start, done;
  boost::system::error_code ec;
  try {
    if (!unix_socket.empty()) {
      p.probe_type = "unix_connect";
      asio::local::stream_protocol::socket socket(io);
      start = std::chrono::steady_clock::now();
      ec = network_timed_connect(io, socket, asio::local::stream_protocol::endpoint(unix_socket),
                                 timeout_s, done);
    } else {
      asio::ip::tcp::resolver resolver(io);
      const auto found = resolver.resolve(url.host, std::to_string(url.port));
      asio::ip::tcp::socket socket(io);
      start = std::chrono::steady_clock::now();
      ec = network_timed_connect(io, socket, *found.begin(), timeout_s, done);
    }
  } catch (const std::exception& e) {
    p.error = e.what();
    return p;
  }
  if (ec) {
    p.error = ec.message();
  } else {
    p.rtt_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(done - start).count();
  }
  return p;
}

NetworkLatencyProber::NetworkLatencyProber(const config::NetworkLatencyConfig& config,
                                           const std::vector<transport::BaseUrl>& urls,
                                           std::string unix_socket)
    : config_(config), unix_socket_(std::move(unix_socket)) {
  // One probe per endpoint: URLs that differ only in their path share it.
  std::set<std::pair<std::string, int>> seen;
  for (const auto& u : urls)
    if (seen.emplace(u.host, u.port).second) urls_.push_back(u);
}

NetworkLatencyProber::~NetworkLatencyProber() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void NetworkLatencyProber::start() {
  if (!config_.automatic || thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
}

void NetworkLatencyProber::loop() {
  const double interval = config_.ping_interval_s;
  const double timeout = std::clamp(interval, 0.1, 5.0);
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    std::vector<report::NetworkProbe> round;
    for (const auto& u : urls_) round.push_back(probe_network_once(u, unix_socket_, timeout));
    lock.lock();
    for (auto& p : round) probes_.push_back(std::move(p));
    wake_.wait_for(lock, std::chrono::duration<double>(interval), [this] { return stopping_; });
  }
}

std::vector<report::NetworkProbe> NetworkLatencyProber::probes() const {
  std::lock_guard lock(mutex_);
  return probes_;
}

std::optional<double> NetworkLatencyProber::finish(const std::filesystem::path& probes_file) {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (config_.mean_ms) return *config_.mean_ms * 1e6;
  if (!config_.automatic) return std::nullopt;
  if (auto w = report::write_atomically(probes_file, report::network_probes_jsonl(probes_)); !w)
    spdlog::error("{}", w.error().describe());
  const std::optional<double> mean = report::mean_probe_rtt_ns(probes_);
  if (!mean) {
    spdlog::warn(
        "--network-latency-automatic: none of the {} probe(s) connected; no "
        "network_adjusted_* metrics",
        probes_.size());
  } else {
    spdlog::info("network round trip: {:.3f} ms (mean of {} probe(s))", *mean / 1e6,
                 probes_.size());
  }
  return mean;
}

}  // namespace inferperf::app
