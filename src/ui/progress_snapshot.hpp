// ProgressSnapshot: everything a live view shows at one instant, copied out of the running
// benchmark by the UI thread. Front ends render snapshots only; they never reach into the
// workers, the issuer or the collector, so drawing costs the measurement nothing but the copy.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace inferperf::ui {

struct PhaseProgress {
  std::string name;  // "warmup", "profiling"
  std::int64_t sent = 0;
  std::int64_t completed = 0;  // finished with content (what request_count counts)
  std::int64_t errors = 0;     // finished without (what error_request_count counts)
  std::int64_t in_flight = 0;
  std::optional<std::int64_t> target_count;  // --request-count (or the warmup's)
  std::optional<double> duration_s;          // --benchmark-duration
  double elapsed_s = 0;
  double requests_per_s = 0;       // completed / elapsed
  double output_tokens_per_s = 0;  // approximate: see LiveStats
  bool done = false;
};

// Approximate percentiles from a log-linear histogram (each within about 3 % of the truth).
struct Percentiles {
  std::uint64_t count = 0;
  double p50 = 0, p90 = 0, p99 = 0;  // in the metric's display unit
};

struct WorkerHealthView {
  int id = 0;
  double cpu_percent = 0;      // over the last snapshot interval
  double loop_lag_p99_ms = 0;  // over the last snapshot interval
};

struct ProgressSnapshot {
  std::vector<PhaseProgress> phases;  // the phases that have started, in order
  // Live metrics of the current (latest) phase.
  Percentiles ttft_ms, itl_ms, latency_ms;
  double requests_per_s = 0, output_tokens_per_s = 0;
  std::vector<double> throughput_history;  // completed requests per second, oldest first
  std::vector<std::pair<std::string, std::int64_t>> errors_by_type;  // most frequent first
  std::vector<WorkerHealthView> workers;
  double schedule_lag_p99_ms = 0;
  std::vector<std::string> telemetry;  // one summary line per GPU or metrics endpoint
  std::vector<std::string> log;        // most recent last
  bool finished = false;               // the run is over; this is the last frame
};

}  // namespace inferperf::ui
