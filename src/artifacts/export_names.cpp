#include "artifacts/export_names.hpp"

#include <array>

#include "core/file_names.hpp"

namespace inferperf::artifacts {

namespace {

// The part after the last '/'.
std::string last_component(const std::string& prefix) {
  const auto slash = prefix.rfind('/');
  return slash == std::string::npos ? prefix : prefix.substr(slash + 1);
}

// Longest name export_names() adds to a prefix.
constexpr std::size_t kLongestSuffix = sizeof("_network_latency.jsonl") - 1;

bool usable_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && !core::has_control_chars(name) &&
         name.size() + kLongestSuffix <= core::kMaxFileNameBytes;
}

}  // namespace

ExportNames export_names(const std::string& given) {
  const std::string prefix = last_component(given);
  if (!usable_file_name(prefix)) return {};
  // Longest, most specific suffixes first, as AIPerf checks them.
  static constexpr std::array<const char*, 12> kSuffixes = {"_server_metrics.parquet",
                                                            "_server_metrics.jsonl",
                                                            "_server_metrics.json",
                                                            "_server_metrics.csv",
                                                            "_gpu_telemetry.jsonl",
                                                            "_timeslices.csv",
                                                            "_timeslices.json",
                                                            "_raw.jsonl",
                                                            ".parquet",
                                                            ".csv",
                                                            ".json",
                                                            ".jsonl"};
  std::string p = prefix;
  for (const char* s : kSuffixes) {
    const std::string suffix = s;
    if (p.size() > suffix.size() && p.ends_with(suffix)) {
      p.resize(p.size() - suffix.size());
      break;
    }
  }
  ExportNames n;
  n.summary_json = p + ".json";
  n.summary_csv = p + ".csv";
  n.records_jsonl = p + ".jsonl";
  n.raw_jsonl = p + "_raw.jsonl";
  n.timeslices_csv = p + "_timeslices.csv";
  n.timeslices_json = p + "_timeslices.json";
  n.gpu_telemetry_jsonl = p + "_gpu_telemetry.jsonl";
  n.server_metrics_json = p + "_server_metrics.json";
  n.server_metrics_csv = p + "_server_metrics.csv";
  n.server_metrics_jsonl = p + "_server_metrics.jsonl";
  n.network_latency_jsonl = p + "_network_latency.jsonl";
  return n;
}

}  // namespace inferperf::artifacts

namespace inferperf::artifacts {

std::string check_export_prefix(std::string& prefix, std::string& warning) {
  if (prefix.empty()) return "";
  const std::string flag = "--profile-export-prefix";
  if (core::has_control_chars(prefix)) return flag + ": the name holds a control character";
  const std::string name = last_component(prefix);
  if (name.empty() || name == "." || name == "..") {
    return flag + " '" + prefix +
           "' is not a file name (the export files are always written inside the artifact folder; "
           "choose the folder with --artifact-dir)";
  }
  if (!usable_file_name(name)) {
    return flag + ": '" + name + "' is too long for a file name (at most " +
           std::to_string(core::kMaxFileNameBytes - kLongestSuffix) + " bytes)";
  }
  if (name != prefix) {
    warning = flag + " '" + prefix +
              "': the export files are always written inside the artifact folder; using '" + name +
              "' (choose the folder with --artifact-dir)";
    prefix = name;
  }
  const ExportNames n = export_names(prefix);
  for (const std::string* f :
       {&n.summary_json, &n.summary_csv, &n.records_jsonl, &n.raw_jsonl, &n.timeslices_csv,
        &n.timeslices_json, &n.gpu_telemetry_jsonl, &n.server_metrics_json, &n.server_metrics_csv,
        &n.server_metrics_jsonl, &n.network_latency_jsonl}) {
    for (const char* own :
         {kInputsFileName, kRecordsFileName, kManifestFileName, kLogsFolderName}) {
      if (*f == own)
        return flag + " '" + prefix + "' would overwrite the run's own " + own + "; choose another";
    }
  }
  return "";
}

}  // namespace inferperf::artifacts
