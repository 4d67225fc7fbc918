// Adaptive search (AIPerf 0.11's --search-*): the iterations a search ran, what
// search_history.json says about them, the console's report (the best point, the capacity
// boundary, each tier) and a sweep judged by --search-sla. The planners are in
// sweep/planners.hpp and sweep/bayesian_planner.hpp, the loop's decisions in
// sweep/search_driver.hpp; app/profile/search_runs.cpp runs the iterations.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/planners.hpp"
#include "sweep/search_args.hpp"
#include "sweep/sla.hpp"
#include "sweep/summary.hpp"

namespace inferperf::sweep {

// A dimension value as the child's flag takes it: "8", "8.0" for a float flag, "2.5" for a real.
std::string dimension_value(const SearchDimension& d, double v);

// One iteration: the point run (one value per dimension), its runs (one per
// --num-profile-runs), the SLA checks on their mean, whether all held, and the objective
// (--search-metric/--search-stat: the mean over the runs, or with --search-percentile-pooling
// pooled the percentile of all their requests).
struct SearchIteration {
  int index = 1;  // 1-based: search_iter_0001
  std::vector<double> values;
  PointResult result;
  std::vector<SlaCheck> checks;
  bool feasible = false;
  std::optional<double> objective;
};

// A one-dimension boundary, from what ran (one rule for a search, a sweep's console answer and
// the plot's capacity line): by value ascending, the last value meeting every filter before the
// first failing one above a pass, and that failure. A pass above it is noise around the limit,
// not capacity; a failure below every pass bounds nothing. With no pass: the smallest failure.
struct SearchBoundary {
  std::optional<double> largest_feasible, smallest_infeasible;
};
SearchBoundary boundary_of(std::vector<std::pair<double, bool>> points);
SearchBoundary search_boundary(const std::vector<SearchIteration>& iterations);

// The feasible iteration with the best objective (ties: the larger first value); nullptr when
// none.
const SearchIteration* best_iteration(const SearchArgs& s,
                                      const std::vector<SearchIteration>& iterations);

// search_history.json: {config, iterations, best_trials, boundary_summary, recipe,
// convergence_reason} (docs/sweeps.md, Search); boundary_summary only for one dimension.
nlohmann::ordered_json search_history_json(const SearchArgs& s, int num_profile_runs,
                                           const std::vector<SearchIteration>& iterations,
                                           const std::string& stop_reason);

// The console's table (one row per iteration), the best point and, for one dimension, the
// capacity answer below it; with repeated runs, each filter's mean and confidence interval (at
// `confidence_level`) on both sides of the boundary.
std::string search_report(const SearchArgs& s, const std::vector<SearchIteration>& iterations,
                          const std::string& stop_reason, double confidence_level = 0.95);

// A point's values as {path: value} (whole numbers for int dimensions): search_history.json's
// parameters and run_info's variation_values.
nlohmann::ordered_json search_parameters_json(const SearchArgs& s,
                                              const std::vector<double>& values);

// Each check as {filter, value, passed}: an iteration's and a sweep point's `sla`.
nlohmann::ordered_json sla_checks_json(const std::vector<SlaCheck>& checks);

// A sweep filtered by --search-sla: the filters as the sweep aggregate's
// metadata.sla_constraints (metric, stat, op, threshold).
nlohmann::ordered_json sla_constraints_json(const std::vector<SlaFilter>& filters);

// A sweep filtered by --search-sla: sweep_summary.json gains metadata.sla_filters and, per
// point, "sla" (each filter's value and verdict) and "meets_sla".
void add_sla_to_summary(nlohmann::ordered_json& summary, const std::vector<PointResult>& points,
                        const std::vector<SlaFilter>& filters);

// A sweep filtered by --search-sla: one row per point (each filter's value, whether all hold)
// and the answer: with one swept flag the largest value whose point meets every filter (and
// whether a larger one does not), with several the points that meet them.
std::string sweep_sla_report(const std::vector<SweepParam>& params,
                             const std::vector<PointResult>& points,
                             const std::vector<SlaFilter>& filters);

}  // namespace inferperf::sweep
