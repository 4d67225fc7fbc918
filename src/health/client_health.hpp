// The client's self-check: how busy inferperf itself was while it measured. A client that runs
// out of CPU stamps its reads late and sends late, and would publish its own limits as the
// server's. Every run measures its worker threads (CPU, event-loop lag), its issuer and its
// schedule lag over the profiling window; assess() turns that into the `client_health` block of
// profile_export_aiperf.json and a warning naming the cause when a threshold is crossed.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/latency_histogram.hpp"

namespace inferperf::health {

struct WorkerUsage {
  int id = 0;
  double cpu_s = 0;  // over the window
  double loop_lag_p50_ms = 0, loop_lag_p99_ms = 0, loop_lag_max_ms = 0;
  std::uint64_t loop_lag_samples = 0;
  // Over the window, from the scheduler (nullopt when the kernel does not say): time the thread
  // waited on a run queue while runnable, and times it was preempted.
  std::optional<double> run_delay_s;
  std::optional<double> involuntary_switches;
};

// What was measured over one phase (the profiling phase is the one reported).
struct ClientLoad {
  double window_s = 0;
  std::vector<WorkerUsage> workers;
  std::optional<double> issuer_cpu_s;
  double process_user_s = 0, process_system_s = 0;
  // CPU time the hypervisor stole over the window, summed over the host's `host_cpus` CPUs.
  std::optional<double> host_steal_s;
  int host_cpus = 1;
};

// Summarises a worker's loop-lag histogram over a window.
WorkerUsage worker_usage(int id, double cpu_s, const core::HistogramSnapshot& lag_in_window);

// The manifest keeps the measurement so `analyze` reproduces the block.
nlohmann::ordered_json load_to_json(const ClientLoad& load);
ClientLoad load_from_json(const nlohmann::json& j);  // throws nlohmann::json::exception

struct Thresholds {
  double loop_lag_p99_ms = 1.0;
  double worker_cpu_percent = 90.0;
  double schedule_lag_p99_ms = 1.0;
  // A worker that spent at least this share of the window runnable but waiting for a CPU, and at
  // least half as long as it ran, was delayed by someone else's work more than by its own (a p99
  // of loop lag needs waits in only 1 % of the probes); so was a host whose CPUs lost this share
  // to the hypervisor.
  double run_queue_wait_percent = 0.5;
  double steal_percent = 5.0;
};

// What the records say, beside the thread measurements.
struct WorkDone {
  std::int64_t requests = 0;  // profiling records, failed ones included
  std::int64_t events = 0;    // SSE events (or whole bodies) they received
  std::optional<double> schedule_lag_p50_ms, schedule_lag_p99_ms;
};

// Late loops or sends have two causes, worded apart: the client's own threads are busy
// (`saturated`: inferperf is the bottleneck), or they wait for CPUs another process holds
// (`host_contended`: a server or job on the same cores; the numbers include that wait).
struct Assessment {
  bool saturated = false;
  bool host_contended = false;
  std::vector<std::string> warnings;    // one per cause of saturation, naming it
  std::vector<std::string> contention;  // one per sign of host contention
  nlohmann::ordered_json block;         // `client_health`
};

// `load` is nullopt when the run ended before measuring it (an unfinished run analysed later):
// only the schedule lag can then be judged, and the block says what is unknown.
Assessment assess(const std::optional<ClientLoad>& load, const WorkDone& work,
                  const Thresholds& limits = {});

}  // namespace inferperf::health
