// Scrapes GPU telemetry (DCGM exporter pages, or an NVML sampler) and server metrics pages on one
// background thread every interval, from before the profiling phase until after it, so exporters
// can cut the profiling window afterwards. Blocking HTTP on its own thread never touches the
// load-generating threads.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.hpp"
#include "telemetry/dcgm.hpp"
#include "telemetry/endpoint_state.hpp"
#include "telemetry/gpu_sample.hpp"
#include "telemetry/scrape_log.hpp"
#include "transport/http_policy.hpp"

namespace inferperf::telemetry {

using GpuSampler = std::function<std::vector<GpuSample>(std::int64_t mono_ns)>;

struct CollectorOptions {
  std::vector<std::string> dcgm_urls;          // given by the user: unreachable ones are warned
  std::vector<std::string> default_dcgm_urls;  // always probed, quietly skipped when absent
  GpuSampler gpu_sampler;                      // NVML; replaces DCGM scraping when set
  std::vector<std::string> server_urls;        // Prometheus pages of the servers under test
  // Pages derived from --url (not named with --server-metrics-url): a server that answers there
  // without a metrics page (llama.cpp without --metrics: HTTP 501) is noted, not warned about.
  std::vector<std::string> default_server_urls;
  std::vector<CustomGpuField> custom_fields;
  double interval_s = 0.333;
  double probe_timeout_s = 10.0;  // first fetch of an endpoint the user named
  double default_probe_timeout_s = 2.0;
  // TLS trust (--ssl-ca-file, --insecure) and credentials (same origin as --url only) of the run.
  transport::HttpPolicy http;
};

class TelemetryCollector {
 public:
  TelemetryCollector(const core::Clock& clock, CollectorOptions options);
  ~TelemetryCollector();
  TelemetryCollector(const TelemetryCollector&) = delete;
  TelemetryCollector& operator=(const TelemetryCollector&) = delete;

  void start();
  // Blocks until one whole round that began after this call has finished (baseline and final
  // scrapes).
  void scrape_now();
  void stop();

  // Whether some server-metrics page has answered; safe while the collector runs.
  bool any_server_reachable() const { return server_reachable_.load(); }

  bool active() const { return !gpu_endpoints_.empty() || opts_.gpu_sampler || !server_.empty(); }

  // One line per GPU and per server-metrics endpoint as of the last finished round, for a live
  // view; any thread, while the collector runs.
  std::vector<std::string> live_lines() const;

  // Read after stop().
  const std::vector<GpuSample>& gpu_samples() const { return gpu_samples_; }
  const std::vector<EndpointState>& gpu_endpoints() const { return gpu_endpoints_; }
  const std::vector<EndpointState>& server_endpoints() const { return server_; }
  const std::vector<ScrapeLog>& server_logs() const { return server_logs_; }

 private:
  void loop();
  void round(bool patient);
  void update_live_lines(std::size_t first_new_gpu_sample);
  bool fetch(EndpointState& e, bool patient, std::string& body, std::int64_t& sent,
             std::int64_t& done);

  const core::Clock& clock_;
  CollectorOptions opts_;
  std::vector<EndpointState> gpu_endpoints_;
  std::vector<EndpointState> server_;
  std::vector<ScrapeLog> server_logs_;
  std::vector<GpuSample> gpu_samples_;

  mutable std::mutex live_mu_;
  std::vector<std::string> live_lines_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::int64_t rounds_started_ = 0;
  std::int64_t rounds_done_ = 0;
  bool wanted_now_ = false;
  bool stopping_ = false;
  bool explicit_round_ = false;  // asked for by scrape_now(): the patient timeout applies
  std::atomic<bool> server_reachable_{false};
  std::thread thread_;
};

}  // namespace inferperf::telemetry
