// The export files' names: AIPerf's defaults, or all derived from --profile-export-prefix.
#pragma once
#include <string>

#include "artifacts/run_folder.hpp"

namespace inferperf::artifacts {

struct ExportNames {
  std::string summary_json = kSummaryJsonFileName;
  std::string summary_csv = kSummaryCsvFileName;
  std::string records_jsonl = kRecordsExportFileName;
  std::string raw_jsonl = kRawExportFileName;
  std::string timeslices_csv = kTimeslicesCsvFileName;
  std::string timeslices_json = kTimeslicesJsonFileName;
  std::string gpu_telemetry_jsonl = kGpuTelemetryFileName;
  std::string server_metrics_json = kServerMetricsJsonFileName;
  std::string server_metrics_csv = kServerMetricsCsvFileName;
  std::string server_metrics_jsonl = kServerMetricsJsonlFileName;
  std::string network_latency_jsonl = kNetworkLatencyFileName;  // --network-latency-automatic
};

// Spec 6.2: a known suffix of the prefix is stripped once (".json", "_raw.jsonl", ...), then
// every file is <prefix>.csv, <prefix>.json, <prefix>.jsonl, <prefix>_raw.jsonl,
// <prefix>_timeslices.csv/.json, <prefix>_gpu_telemetry.jsonl, <prefix>_server_metrics.*,
// <prefix>_network_latency.jsonl. An empty prefix gives the defaults. Only the prefix's last path
// component is used, and one that is not a usable file name (".", "..", control characters, too
// long) gives the defaults too, so no prefix (from the command line or a manifest) can name a file
// outside the artifact folder.
ExportNames export_names(const std::string& prefix);

// Checks --profile-export-prefix before anything is sent: "" when it is usable as given.
// A prefix with folders ("out/run1", "/tmp/x.json") is reduced to its last component, which
// `prefix` then holds, and `warning` says so. Errors: a last component that is empty, "." or "..",
// control characters, a name too long for the file system, or names that would overwrite the
// run's own files (inputs.json, inferperf_records.jsonl, inferperf_run.json, logs).
std::string check_export_prefix(std::string& prefix, std::string& warning);

}  // namespace inferperf::artifacts
