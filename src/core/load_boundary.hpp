// The capacity boundary of points judged against SLOs along one load axis: one rule for a
// search's boundary_summary, a sweep's console answer and the plot's SLO-attainment chart.
#pragma once
#include <optional>
#include <utility>
#include <vector>

namespace inferperf::core {

struct LoadBoundary {
  // By load ascending: the last load that passed before the first failure above a pass (a pass
  // above that failure is noise around the limit, not capacity; a failure below every pass, a
  // cold first point, bounds nothing).
  std::optional<double> largest_passing;
  std::optional<double> first_failing_above;  // that failure; none when passing all the way up
  std::optional<double> smallest_failing;     // the smallest failing load at all
};

// `points`: (load, passed), in any order.
LoadBoundary load_boundary(std::vector<std::pair<double, bool>> points);

}  // namespace inferperf::core
