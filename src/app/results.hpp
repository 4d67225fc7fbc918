// The analysis half of a run: metrics from the finished records, the console report and every
// export file. Shared by `profile` (records in memory) and `analyze` (records read back).
#pragma once
#include <filesystem>
#include <memory>
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

// The analysis as one pass over the records, in the order they finished: add() folds each record
// into the metric columns (metrics::MetricsAccumulator), the timeslices and the workload tally and
// streams its profile_export.jsonl (and raw) line to a temporary file; finish() computes the
// statistics, prints the console report and writes every export into ctx.artifact_dir. No record
// is kept, so memory grows by a few bytes per record whatever the run's length.
class ReportPass {
 public:
  // `expected_records` (0: unknown) sizes the metric columns up front.
  ReportPass(const artifacts::ExportSettings& settings, const report::ReportContext& ctx,
             std::size_t expected_records = 0);
  ~ReportPass();
  ReportPass(const ReportPass&) = delete;
  ReportPass& operator=(const ReportPass&) = delete;
  void add(const records::RequestRecord& r);
  // A trace replay's workload check, known once every record went through (before finish()).
  void set_workload(report::WorkloadExpectation workload);
  // The exit code: 0, 1 (no valid record or an export failed) or 130 (ctx.was_cancelled).
  int finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// A ReportPass over `records`.
int report_results(const std::vector<records::RequestRecord>& records,
                   const artifacts::ExportSettings& settings, const report::ReportContext& ctx);

}  // namespace inferperf::app
