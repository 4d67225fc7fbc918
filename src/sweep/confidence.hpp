// Cross-run statistics of repeated runs (docs/sweeps.md): over the per-run `avg` of each metric,
// the mean, sample standard deviation, standard error and a Student-t confidence interval.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace inferperf::sweep {

// The q-quantile of Student's t distribution with `dof` degrees of freedom (q in (0, 1), dof >= 1).
double student_t_quantile(double q, double dof);

struct RunStats {
  double mean = 0, min = 0, max = 0;
  // Unset with one value (no spread can be estimated from one run).
  std::optional<double> std, se, ci_low, ci_high, t_critical;
  std::optional<double>
      cv;  // std / mean; unset when the mean is 0 (AIPerf: +inf, which JSON cannot hold)
};

RunStats run_stats(const std::vector<double>& values, double confidence_level);

// One repeated run as read back from its folder.
struct RunResult {
  std::string label;               // "run_0001"
  bool ok = false;                 // its profile_export_aiperf.json was written and read
  std::string error;               // why not, when !ok
  nlohmann::ordered_json summary;  // profile_export_aiperf.json
};

struct AggregateMeta {
  int num_profile_runs = 0;
  double confidence_level = 0.95;
  double cooldown_s = 0;
};

// profile_export_aiperf_aggregate.json: metadata and, for every metric with an `avg` in all
// successful runs (in the first run's key order), its cross-run statistics.
nlohmann::ordered_json aggregate_json(const std::vector<RunResult>& runs,
                                      const AggregateMeta& meta);
// The same metrics as CSV: Metric,Unit,Mean,Std,Min,Max,CV,SE,CI Low,CI High,t Critical.
std::string aggregate_csv(const nlohmann::ordered_json& aggregate);

}  // namespace inferperf::sweep
