// AIPerf 0.11's sweep-level aggregate, profile_export_aiperf_sweep.{json,csv}: every variation's
// cross-trial metrics, the best configurations and the Pareto-optimal points (docs/sweeps.md).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/confidence.hpp"
#include "sweep/points.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {

// One variation as the sweep aggregate sees it: its point, its trials and their aggregate.
struct VariationResult {
  SweepPoint point;
  std::vector<RunResult> runs;  // in trial order
  Aggregate aggregate;          // over `runs`
};

// The variation's parameter values keyed by config path, numbers where they parse as one.
nlohmann::ordered_json variation_values(const std::vector<SweepParam>& params,
                                        const SweepPoint& point);

nlohmann::ordered_json sweep_aggregate_json(const std::vector<SweepParam>& params,
                                            const std::vector<VariationResult>& variations,
                                            const SweepOptions& options);
std::string sweep_aggregate_csv(const nlohmann::ordered_json& sweep);

}  // namespace inferperf::sweep
