// What every exporter needs besides the metrics: run identity, config echo and file locations.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "health/client_health.hpp"
#include "metrics/compute.hpp"
#include "report/workload_check.hpp"
#include "report/workload_integrity.hpp"

namespace inferperf::report {

struct ReportContext {
  std::string benchmark_id;
  std::string title = "LLM Metrics";
  std::string cli_command;
  std::string token_source;             // shown under the table, e.g. "server usage"
  nlohmann::ordered_json input_config;  // what the user set, plus computed values
  // Child sessions' agent_depth by session id (roots, 0, left out): profile_export.jsonl metadata.
  std::map<std::string, int> agent_depths;
  // AIPerf 0.11's run_info (app/profile/run_info.hpp), written after input_config.
  nlohmann::ordered_json run_info;
  bool was_cancelled = false;
  // Stopped early by --failed-request-threshold (also was_cancelled): exit 1, not 130.
  bool failure_threshold_exceeded = false;
  core::WallAnchor anchor;
  core::MonoNs phase_start_ns = 0;
  core::MonoNs phase_end_ns = 0;
  std::filesystem::path artifact_dir;
  std::optional<std::int64_t> dropped_arrivals;  // set in request-rate modes
  bool export_http_trace = false;                // trace_data in profile_export.jsonl
  // AIPerf's telemetry_data object (GPU telemetry over the profiling window); null when none.
  nlohmann::ordered_json telemetry_data;
  bool show_gpu_telemetry = false;  // --gpu-telemetry given: print the console summary
  std::string gpu_telemetry_note;   // printed instead when there is nothing to summarise
  // Trace runs: what the sent rows declared, checked against the measured averages.
  std::optional<WorkloadExpectation> workload;
  // Top-level body keys given with --extra-inputs whose names are secret (core::is_secret_name):
  // their values are written as "<redacted>" in the payloads of the raw export.
  std::vector<std::string> secret_body_keys;
  // The client's self-check over the profiling phase (nullopt: the run ended before measuring
  // it) and, once assessed with the records, the `client_health` block.
  std::optional<health::ClientLoad> client_load;
  nlohmann::ordered_json client_health;
  // What the profiling phase set out to send (null for reports built without one); the
  // workload_integrity block is computed from it and the records when the report is written.
  std::optional<WorkloadPlan> workload_plan;
  bool fail_on_incomplete_workload =
      false;  // --fail-on-incomplete-workload: exit 1 when incomplete
  nlohmann::ordered_json workload_integrity;
  // What the run learned about the server's connection handling (ServerBehaviour), null when it
  // was unremarkable: {closes_connection_after_stream, connection_retry_count}.
  nlohmann::ordered_json server_behaviour;
  // Sharded runs: {index, count, start_at?, started_wall_ns}, kept in the manifest for `merge`
  // (null otherwise; no export shows it).
  nlohmann::ordered_json shard;
  // --network-latency-*: the round trip (ns) the network_adjusted_* metrics take off (the probes'
  // mean, or --network-latency-mean); nullopt when off or when no probe succeeded.
  std::optional<double> network_rtt_ns;
};

}  // namespace inferperf::report
