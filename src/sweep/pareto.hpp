// The Pareto frontier of a sweep: the points no other point beats on both throughput (higher is
// better) and latency (lower is better).
#pragma once
#include <optional>
#include <vector>

namespace inferperf::sweep {

struct ParetoPoint {
  std::optional<double> throughput;
  std::optional<double> latency;
};

// true for each point on the frontier. A point is dominated when another has at least its
// throughput and at most its latency and is strictly better in one; equal points are all kept.
// A point missing either value is never on the frontier and dominates nothing.
std::vector<bool> pareto_frontier(const std::vector<ParetoPoint>& points);

}  // namespace inferperf::sweep
