// Every name in a run folder (one `profile` run's artifact folder, or a merge's) and in the
// folders around it (repeated runs, sweeps): one constant each, so the commands that write a
// folder (profile, merge, the orchestrator) and those that read it back (analyze, merge, plot)
// cannot drift apart. Header-only and free of dependencies: plot includes it without linking the
// rest of the module.
#pragma once

namespace inferperf::artifacts {

// The run's own files, whatever --profile-export-prefix says.
inline constexpr const char* kInputsFileName = "inputs.json";
inline constexpr const char* kRecordsFileName = "inferperf_records.jsonl";
inline constexpr const char* kManifestFileName = "inferperf_run.json";
inline constexpr const char* kLogsFolderName = "logs";
inline constexpr const char* kLogFileName = "inferperf.log";  // inside kLogsFolderName
// What answered: the model list, identifying headers, version routes (app/profile/server_info).
inline constexpr const char* kServerInfoFileName = "server_info.json";

// AIPerf's export names without --profile-export-prefix (export_names() derives the others).
inline constexpr const char* kSummaryJsonFileName = "profile_export_aiperf.json";
inline constexpr const char* kSummaryCsvFileName = "profile_export_aiperf.csv";
inline constexpr const char* kRecordsExportFileName = "profile_export.jsonl";
inline constexpr const char* kRawExportFileName = "profile_export_raw.jsonl";
inline constexpr const char* kTimeslicesCsvFileName = "profile_export_aiperf_timeslices.csv";
inline constexpr const char* kTimeslicesJsonFileName = "profile_export_aiperf_timeslices.json";
inline constexpr const char* kGpuTelemetryFileName = "gpu_telemetry_export.jsonl";
inline constexpr const char* kServerMetricsJsonFileName = "server_metrics_export.json";
inline constexpr const char* kServerMetricsCsvFileName = "server_metrics_export.csv";
inline constexpr const char* kServerMetricsJsonlFileName = "server_metrics_export.jsonl";
inline constexpr const char* kNetworkLatencyFileName = "profile_export_network_latency.jsonl";

// Repeated runs and sweeps: the orchestrator writes them, plot reads them.
inline constexpr const char* kProfileRunsFolderName = "profile_runs";  // run_0001, run_0002...
inline constexpr const char* kAggregateFolderName = "aggregate";
inline constexpr const char* kAggregateJsonFileName = "profile_export_aiperf_aggregate.json";
// Beside the aggregate with --convergence-* and per-request exports: every run's values pooled.
inline constexpr const char* kCollatedJsonFileName = "profile_export_aiperf_collated.json";
inline constexpr const char* kAggregateCsvFileName = "profile_export_aiperf_aggregate.csv";
inline constexpr const char* kSweepSummaryJsonFileName = "sweep_summary.json";
inline constexpr const char* kSweepSummaryCsvFileName = "sweep_summary.csv";
// At a search's root (--search-space, --search-recipe), rewritten after every iteration.
inline constexpr const char* kSearchHistoryJsonFileName = "search_history.json";

}  // namespace inferperf::artifacts
