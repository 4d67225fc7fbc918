// The Pareto frontier of points on two axes, each with its own better direction. One rule for the
// sweep summary and the plots: a point is dominated when another point is no worse on both axes
// and strictly better on one, so equal points are all kept.
#pragma once
#include <utility>
#include <vector>

namespace inferperf::core {

// true for each point on the frontier.
std::vector<bool> pareto_mask(const std::vector<std::pair<double, double>>& points,
                              bool x_larger_is_better, bool y_larger_is_better);

}  // namespace inferperf::core
