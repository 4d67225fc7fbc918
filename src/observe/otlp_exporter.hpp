// OtlpExporter: pushes LiveMetrics snapshots to an OTLP/HTTP collector from its own thread, every
// `interval` and once more at finish(). Pushes wait in a bounded queue (the oldest is dropped when
// it is full: every push is cumulative, so a later one carries the same totals); a failed push is
// tried again with back-off. A collector that cannot be reached costs one warning naming the URL,
// and finish() waits for the final push at most `final_wait`.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "observe/live_metrics.hpp"
#include "observe/otlp_json.hpp"

namespace inferperf::observe {

struct OtlpExporterOptions {
  std::string url;  // normalised: http(s)://host:port/.../v1/metrics
  OtlpIdentity identity;
  std::chrono::milliseconds interval{5000};
  std::chrono::milliseconds request_timeout{2000};
  std::chrono::milliseconds final_wait{2000};
  std::size_t max_pending = 4;
  int max_attempts = 3;  // per push, before it is dropped
  bool verify_tls = true;
  std::string ssl_ca_file;
};

// The push interval: INFERPERF_OTEL_INTERVAL_MS when set to a positive number, else 5 s.
std::chrono::milliseconds otel_interval_from_environment();

class OtlpExporter {
 public:
  OtlpExporter(const LiveMetrics& metrics, OtlpExporterOptions options);
  ~OtlpExporter();
  OtlpExporter(const OtlpExporter&) = delete;
  OtlpExporter& operator=(const OtlpExporter&) = delete;

  void start();
  // The final push (after the last record), then the thread ends; bounded by final_wait.
  void finish();

  // After finish(): pushes answered 2xx, and pushes dropped.
  std::int64_t delivered() const;
  std::int64_t dropped() const;

 private:
  struct Pending {
    std::string body;
    int attempts = 0;
  };
  void run();
  void enqueue_snapshot();
  // Sends the queue's front items until one fails; true when the queue is empty.
  bool drain(std::chrono::milliseconds timeout);
  void note_failure(const std::string& why);

  const LiveMetrics& metrics_;
  const OtlpExporterOptions options_;
  const std::int64_t start_unix_ns_;
  std::thread thread_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::deque<Pending> queue_;  // only the exporter thread touches it
  std::int64_t delivered_ = 0, dropped_ = 0;
  bool warned_ = false;
};

}  // namespace inferperf::observe
