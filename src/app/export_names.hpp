// The export files' names: AIPerf's defaults, or all derived from --profile-export-prefix.
#pragma once
#include <string>

namespace inferperf::app {

struct ExportNames {
  std::string summary_json = "profile_export_aiperf.json";
  std::string summary_csv = "profile_export_aiperf.csv";
  std::string records_jsonl = "profile_export.jsonl";
  std::string raw_jsonl = "profile_export_raw.jsonl";
  std::string timeslices_csv = "profile_export_aiperf_timeslices.csv";
  std::string timeslices_json = "profile_export_aiperf_timeslices.json";
  std::string gpu_telemetry_jsonl = "gpu_telemetry_export.jsonl";
  std::string server_metrics_json = "server_metrics_export.json";
  std::string server_metrics_csv = "server_metrics_export.csv";
  std::string server_metrics_jsonl = "server_metrics_export.jsonl";
};

// Spec 6.2: a known suffix of the prefix is stripped once (".json", "_raw.jsonl", ...), then
// every file is <prefix>.csv, <prefix>.json, <prefix>.jsonl, <prefix>_raw.jsonl,
// <prefix>_timeslices.csv/.json, <prefix>_gpu_telemetry.jsonl, <prefix>_server_metrics.*. An empty
// prefix gives the defaults.
ExportNames export_names(const std::string& prefix);

}  // namespace inferperf::app
