#include "core/load_boundary.hpp"

#include <algorithm>

namespace inferperf::core {

LoadBoundary load_boundary(std::vector<std::pair<double, bool>> points) {
  std::sort(points.begin(), points.end());
  LoadBoundary b;
  for (const auto& [load, passed] : points) {
    if (!passed && !b.smallest_failing) b.smallest_failing = load;
    if (b.first_failing_above) continue;
    if (passed)
      b.largest_passing = load;
    else if (b.largest_passing)
      b.first_failing_above = load;
  }
  return b;
}

}  // namespace inferperf::core
