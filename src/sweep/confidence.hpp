// Cross-run statistics of repeated runs (docs/sweeps.md): for every `<tag>_<stat>` of the runs'
// profile_export_aiperf.json, the mean, sample standard deviation, standard error and a Student-t
// confidence interval across the runs, written as AIPerf 0.11's
// profile_export_aiperf_aggregate.{json,csv}.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace inferperf::sweep {

// The q-quantile of Student's t distribution with `dof` degrees of freedom (q in (0, 1), dof >= 1).
double student_t_quantile(double q, double dof);

struct RunStats {
  int n = 0;  // finite values the statistics are over
  double mean = 0, std = 0, min = 0, max = 0;
  double cv = 0;  // std / mean; +inf when the mean is 0 (n >= 2)
  double se = 0, ci_low = 0, ci_high = 0;
  // Unset with one value: no spread can be estimated from one run, so std/cv/se are 0 and the
  // interval collapses to the mean (AIPerf 0.11's single-run aggregate).
  std::optional<double> t_critical;
};

// Non-finite values are skipped.
RunStats run_stats(const std::vector<double>& values, double confidence_level);

// One repeated run as read back from its folder.
struct RunResult {
  std::string label;               // "run_0001" (no sweep) or "trial_0001" (a sweep point's trial)
  bool ok = false;                 // its profile_export_aiperf.json was written and read
  std::string error;               // why not, when !ok
  nlohmann::ordered_json summary;  // profile_export_aiperf.json
  std::string dir;                 // the run's folder
};

// `tag`.`stat` of the run's profile_export_aiperf.json; nullopt when it is not a number there.
// request_error_rate, which the export does not carry, is the run's errors / all its requests.
std::optional<double> run_metric(const RunResult& r, const std::string& tag,
                                 const std::string& stat);

struct AggregateMeta {
  int num_profile_runs = 0;
  double confidence_level = 0.95;
  double cooldown_s = 0;
  // Keys appended to the metadata after AIPerf's common ones (a sweep point's variation_label,
  // variation_values, sweep_mode, model).
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
};

struct AggregateMetric {
  std::string key;  // "<tag>_<stat>"
  std::string unit;
  RunStats stats;
};

struct Aggregate {
  nlohmann::ordered_json metadata;  // as written, AIPerf's key order
  std::vector<AggregateMetric> metrics;
  int num_successful_runs = 0;
};

// Every (tag, stat in avg,min,max,sum,p1..p99,std) that any successful run has, in first-seen
// order, with its statistics over the runs that have it.
Aggregate aggregate_runs(const std::vector<RunResult>& runs, const AggregateMeta& meta);

// profile_export_aiperf_aggregate.json: schema_version, aiperf_version, metadata, metrics. A +inf
// cv (mean 0) is written as null: JSON has no infinity, and a bare `Infinity` would make the file
// unreadable to every strict JSON reader.
nlohmann::ordered_json aggregate_json(const Aggregate& aggregate);
// profile_export_aiperf_aggregate.csv: the metric table, an empty row, the metadata rows.
std::string aggregate_csv(const Aggregate& aggregate);

// A metadata value as Python's str() shows it (the CSV metadata rows): True/False, None,
// ['a', 'b'], {'k': 1}, 0.95, 2.0.
std::string python_str(const nlohmann::ordered_json& v);
// A float as Python's str() writes it: 5 -> "5.0", 2.5 -> "2.5", inf -> "inf".
std::string python_float(double d);

}  // namespace inferperf::sweep
