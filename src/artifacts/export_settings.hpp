// What a run's exports are made with besides the records: kept in the run manifest, so `analyze`
// and `merge` write the same files `profile` wrote.
#pragma once
#include <optional>
#include <string>

#include "config/run_config.hpp"
#include "metrics/compute.hpp"

namespace inferperf::artifacts {

struct ExportSettings {
  config::ExportLevel export_level = config::ExportLevel::kRecords;
  metrics::MetricOptions metric_options;
  bool show_trace_timing = false;          // --show-trace-timing
  std::optional<double> slice_duration_s;  // --slice-duration: also write the timeslice exports
  std::string export_prefix;               // --profile-export-prefix ("" = AIPerf's names)
};

}  // namespace inferperf::artifacts
