// The client's own Prometheus endpoint (--prometheus-port): GET /metrics answers a LiveMetrics
// snapshot in the text exposition format 0.0.4. One small thread with a blocking accept loop
// (polled, so stop() is prompt); one request at a time, requests above 8 KiB refused, every
// connection closed after its answer. Never on a worker thread.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "core/error.hpp"
#include "observe/live_metrics.hpp"

namespace inferperf::observe {

// The page for one snapshot (metric names in docs/observability.md).
std::string render_prometheus_text(const MetricsSnapshot& s);

class PrometheusEndpoint {
 public:
  // Binds and listens on host:port (port 0: any free port) before returning, so a port that
  // cannot be had is an error before any traffic. `page` makes each answer's body.
  static core::Result<std::unique_ptr<PrometheusEndpoint>> open(const std::string& host, int port,
                                                                std::function<std::string()> page);
  ~PrometheusEndpoint();
  PrometheusEndpoint(const PrometheusEndpoint&) = delete;
  PrometheusEndpoint& operator=(const PrometheusEndpoint&) = delete;

  int port() const { return port_; }
  void start();
  void stop();

 private:
  PrometheusEndpoint(int fd, int port, std::function<std::string()> page)
      : fd_(fd), port_(port), page_(std::move(page)) {}
  void run();
  void answer(int client);

  int fd_ = -1;
  int port_ = 0;
  std::function<std::string()> page_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace inferperf::observe
