// Multi-run convergence (AIPerf 0.11, --convergence-*): after each successful run of a point (from
// min_runs on), decide whether more runs would change the answer; when not, the point's remaining
// runs are skipped. And the collated file: every run's per-request values pooled.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/confidence.hpp"

namespace inferperf::sweep {

struct ConvergenceOptions {
  std::optional<std::string> metric;  // --convergence-metric: enables it
  std::string stat = "avg";           // avg, p50, p90, p95, p99, min, max
  std::string mode = "ci_width";      // ci_width | cv | distribution
  std::optional<double> threshold;    // (0, 1); unset: the mode's default
  int min_runs = 2;
  // The flag of a --convergence-stat/-mode/-threshold given (they need --convergence-metric).
  std::optional<std::string> knob_given;

  bool enabled() const { return metric.has_value(); }
  // The threshold given, else ci_width 0.10, cv 0.05, distribution 0.05.
  double effective_threshold() const;
};

struct ConvergenceResult {
  bool converged = false;
  std::optional<double> value;  // the relative CI width, the CV or the KS p-value
  int runs = 0;                 // successful runs it was judged on
  std::string detail;           // "ci_width 0.043 < 0.10", "fewer than 2 runs", ...
};

// ci_width: 2 t s / sqrt(n) / |mean| < threshold (t at (1 + level) / 2, n - 1 degrees of
// freedom, s the sample std); cv: s / |mean| < threshold. A mean of 0 never converges.
ConvergenceResult trial_convergence(const std::string& mode, const std::vector<double>& values,
                                    double threshold, double confidence_level);

// The two-sample Kolmogorov-Smirnov statistic sup |F_a - F_b|.
double ks_statistic(std::vector<double> a, std::vector<double> b);
// Its two-sided p-value from the Kolmogorov distribution with Stephens' small-sample correction
// (docs/decisions.md: where it differs from SciPy's exact small-sample p-value).
double ks_p_value(double d, std::size_t na, std::size_t nb);

// distribution: the last run's per-request values against all earlier runs' pooled; converged
// when the p-value is above the threshold (the distributions cannot be told apart).
ConvergenceResult distribution_convergence(const std::vector<std::vector<double>>& per_run,
                                           double threshold);

// A run's per-request values of one metric (its profile_export.jsonl); empty when unreadable.
using PerRequestValues = std::function<std::vector<double>(const RunResult&, const std::string&)>;

// The check after a point's latest run, over its successful runs.
ConvergenceResult check_convergence(const ConvergenceOptions& o, const std::vector<RunResult>& runs,
                                    double confidence_level, const PerRequestValues& per_request);

// The aggregate metadata's "convergence" block: the options and the outcome.
nlohmann::ordered_json convergence_json(const ConvergenceOptions& o, const ConvergenceResult& r);

// One run's per-request values, by metric tag.
struct RunValues {
  std::string label;
  std::vector<std::pair<std::string, std::vector<double>>> metrics;
};

// profile_export_aiperf_collated.json: schema_version "1.0.0", aiperf_version, description,
// metadata, and per metric its pooled per-request statistics (`combined`) and each run's
// (`per_run`): mean, std, p50, p90, p95, p99, count.
nlohmann::ordered_json collated_json(const std::vector<RunValues>& runs,
                                     const nlohmann::ordered_json& metadata);

}  // namespace inferperf::sweep
