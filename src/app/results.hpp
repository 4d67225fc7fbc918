// The analysis half of a run: metrics from the finished records, the console report and every
// export file. Shared by `profile` (records in memory) and `analyze` (records read back).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "artifacts/export_settings.hpp"
#include "config/run_config.hpp"
#include "metrics/compute.hpp"
#include "records/request_record.hpp"
#include "report/report_context.hpp"

namespace inferperf::app {

// The metric options a configuration asks for (AIPERF_METRICS_* environment thresholds
// included).
metrics::MetricOptions metric_options_for(const config::RunConfig& c, bool client_tokenizer);

// The --goodput tags against the metric catalogue ("" when each names a per-request metric): the
// syntax was checked with the command line, the tags are checked here before anything is sent.
std::string goodput_problem(const config::RunConfig& c);

// Computes the metrics, prints the console report and writes the export files into
// ctx.artifact_dir. Returns the exit code: 0, 1 (no valid record or an export failed) or 130
// (ctx.was_cancelled).
int report_results(const std::vector<records::RequestRecord>& records,
                   const artifacts::ExportSettings& settings, const report::ReportContext& ctx);

}  // namespace inferperf::app
