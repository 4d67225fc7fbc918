#include "sweep/pareto.hpp"

namespace inferperf::sweep {

std::vector<bool> pareto_frontier(const std::vector<ParetoPoint>& points) {
  std::vector<bool> on(points.size(), false);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    if (!p.throughput || !p.latency) continue;
    bool dominated = false;
    for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
      const auto& q = points[j];
      if (j == i || !q.throughput || !q.latency) continue;
      const bool no_worse = *q.throughput >= *p.throughput && *q.latency <= *p.latency;
      const bool better = *q.throughput > *p.throughput || *q.latency < *p.latency;
      dominated = no_worse && better;
    }
    on[i] = !dominated;
  }
  return on;
}

}  // namespace inferperf::sweep
