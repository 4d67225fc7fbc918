// A grid recipe's step after its runs (AIPerf 0.11's post-process handlers): the derived file it
// writes into sweep_aggregate/, from each point's metric averaged over its runs.
// - degradation_knee_detect (concurrency-ramp, degradation_knee.json): the lowest concurrency is
//   the baseline; the knee is the first concurrency whose value exceeds baseline x (1 + threshold).
// - ttft_curve_fit (prefill-ttft-curve, prefill_curve.json): TTFT = a x ISL + b by least squares,
//   and a quadratic instead when the line's r^2 is below 0.85.
// - itl_surface_fit (decode-itl-curve, decode_itl_surface.json): ITL on the concurrency x OSL
//   grid, read between grid points by bilinear interpolation.
// - pareto_sweep_export (pareto-sweep, pareto_sweep.json): every shape's TTFT p95 and output
//   token throughput and the frontier of the two.
// - sla_breach_knee (max-concurrency-under-sla --search-style grid, sla_breach_knee.json): the
//   largest concurrency meeting every SLA filter before the first that breaks one.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "sweep/sla.hpp"
#include "sweep/summary.hpp"

namespace inferperf::sweep {

// The derived file's content, or why it cannot be made (too few points with the metric, ...),
// which the orchestrator writes to post_process_errors.json.
core::Result<nlohmann::ordered_json> recipe_post_json(const RecipePost& post,
                                                      const std::vector<SweepParam>& params,
                                                      const std::vector<PointResult>& points,
                                                      const std::vector<SlaFilter>& filters);

// One console line saying what the file found ("Knee: concurrency 52 (request_latency p99 ...").
std::string recipe_post_line(const RecipePost& post, const nlohmann::ordered_json& result);

// Least squares polynomial of `degree` through (x, y): coefficients highest power first (as
// numpy.polyfit gives them) and r^2; nullopt with fewer than degree + 1 distinct x.
struct PolyFit {
  std::vector<double> coefficients;
  double r_squared = 0;
};
std::optional<PolyFit> poly_fit(const std::vector<double>& x, const std::vector<double>& y,
                                int degree);

// Bilinear interpolation on a grid (xs and ys ascending, z[i][j] at xs[i], ys[j]); outside the
// grid the nearest edge value; nullopt when a corner needed is missing (NaN).
std::optional<double> bilinear(const std::vector<double>& xs, const std::vector<double>& ys,
                               const std::vector<std::vector<double>>& z, double x, double y);

}  // namespace inferperf::sweep
