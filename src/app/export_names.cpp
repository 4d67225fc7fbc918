#include "app/export_names.hpp"

#include <array>

namespace inferperf::app {

ExportNames export_names(const std::string& prefix) {
  if (prefix.empty()) return {};
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
  return n;
}

}  // namespace inferperf::app
