#include "core/pareto.hpp"

namespace inferperf::core {

std::vector<bool> pareto_mask(const std::vector<std::pair<double, double>>& points,
                              bool x_larger_is_better, bool y_larger_is_better) {
  const auto better = [](double a, double b, bool larger) { return larger ? a > b : a < b; };
  std::vector<bool> on(points.size(), true);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto [px, py] = points[i];
    for (std::size_t j = 0; j < points.size(); ++j) {
      if (j == i) continue;
      const auto [qx, qy] = points[j];
      const bool no_worse =
          !better(px, qx, x_larger_is_better) && !better(py, qy, y_larger_is_better);
      const bool strictly =
          better(qx, px, x_larger_is_better) || better(qy, py, y_larger_is_better);
      if (no_worse && strictly) {
        on[i] = false;
        break;
      }
    }
  }
  return on;
}

}  // namespace inferperf::core
