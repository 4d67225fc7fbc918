// --network-latency-automatic: a thread of its own opens a fresh TCP connection to each --url every
// --network-latency-ping-interval seconds during profiling and times the handshake (AIPerf 0.11,
// #1066). It shares nothing with the workers but the list of URLs it copied at construction.
#pragma once
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "config/run_config.hpp"
#include "report/network_latency.hpp"
#include "transport/url.hpp"

namespace inferperf::app {

// One probe: resolve `url`'s host (not timed), then connect with a limit of `timeout_s`; with a
// Unix socket the socket is connected instead (probe_type "unix_connect", target_port 0).
report::NetworkProbe probe_network_once(const transport::BaseUrl& url,
                                        const std::string& unix_socket, double timeout_s);

class NetworkLatencyProber {
 public:
  NetworkLatencyProber(const config::NetworkLatencyConfig& config,
                       const std::vector<transport::BaseUrl>& urls, std::string unix_socket);
  ~NetworkLatencyProber();
  NetworkLatencyProber(const NetworkLatencyProber&) = delete;
  NetworkLatencyProber& operator=(const NetworkLatencyProber&) = delete;

  // Starts the probing thread (automatic mode only): one round at once, then one per interval.
  void start();
  // Stops and joins the thread; in automatic mode writes one line per probe to `probes_file`.
  // Returns the round trip to take off (the probes' mean, or --network-latency-mean), nullopt
  // when off or when no probe succeeded (a warning says so).
  std::optional<double> finish(const std::filesystem::path& probes_file);
  std::vector<report::NetworkProbe> probes() const;

 private:
  void loop();

  config::NetworkLatencyConfig config_;
  std::vector<transport::BaseUrl> urls_;
  std::string unix_socket_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<report::NetworkProbe> probes_;
  std::thread thread_;
};

}  // namespace inferperf::app
