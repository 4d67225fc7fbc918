#include "sweep/pareto.hpp"

#include "core/pareto.hpp"

namespace inferperf::sweep {

std::vector<bool> pareto_frontier(const std::vector<ParetoPoint>& points) {
  // Only the points with both values take part.
  std::vector<std::pair<double, double>> known;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].throughput || !points[i].latency) continue;
    known.emplace_back(*points[i].throughput, *points[i].latency);
    index.push_back(i);
  }
  const auto mask = core::pareto_mask(known, true, false);
  std::vector<bool> on(points.size(), false);
  for (std::size_t k = 0; k < index.size(); ++k) on[index[k]] = mask[k];
  return on;
}

}  // namespace inferperf::sweep
