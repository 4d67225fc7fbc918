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
// prefix gives the defaults. Only the prefix's last path component is used, and one that is not a
// usable file name (".", "..", control characters, too long) gives the defaults too, so no prefix
// (from the command line or a manifest) can name a file outside the artifact folder.
ExportNames export_names(const std::string& prefix);

// Checks --profile-export-prefix before anything is sent: "" when it is usable as given.
// A prefix with folders ("out/run1", "/tmp/x.json") is reduced to its last component, which
// `prefix` then holds, and `warning` says so. Errors: a last component that is empty, "." or "..",
// control characters, a name too long for the file system, or names that would overwrite the
// run's own files (inputs.json, inferperf_records.jsonl, inferperf_run.json, logs).
std::string check_export_prefix(std::string& prefix, std::string& warning);

}  // namespace inferperf::app
