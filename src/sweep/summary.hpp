// The sweep summary: each point's key metrics (the mean over its runs), whether it is on the
// Pareto frontier of output token throughput against ITL and against TTFT, as JSON, CSV and a
// console table.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/confidence.hpp"
#include "sweep/convergence.hpp"
#include "sweep/points.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {

struct PointResult {
  SweepPoint point;
  std::vector<RunResult> runs;
  std::optional<ConvergenceResult> convergence;  // with --convergence-*: after its latest run
};

// The metrics each point carries in the summary, as "<tag>.<stat>" of profile_export_aiperf.json.
const std::vector<std::string>& summary_metric_keys();

// The value of `tag`.`stat` averaged over the point's successful runs; null when no run has it.
nlohmann::ordered_json point_metric(const PointResult& p, const std::string& tag,
                                    const std::string& stat);

nlohmann::ordered_json sweep_summary_json(const std::vector<SweepParam>& params,
                                          const std::vector<PointResult>& points,
                                          const SweepOptions& options);
std::string sweep_summary_csv(const nlohmann::ordered_json& summary);
std::string sweep_summary_table(const nlohmann::ordered_json& summary);

}  // namespace inferperf::sweep
