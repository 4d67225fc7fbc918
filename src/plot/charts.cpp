#include "plot/charts.hpp"

namespace inferperf::plot {

void ChartSet::add(Chart chart, const std::string& reason_if_empty) {
  if (has_points(chart))
    charts.push_back(std::move(chart));
  else
    skipped.push_back({chart.name, reason_if_empty});
}

ChartSet build_charts(const std::vector<Point>& points) {
  ChartSet set;
  const auto runs = run_series(points);
  add_comparison_charts(points, set);
  add_distribution_charts(runs, set);
  add_time_charts(runs, set);
  add_telemetry_charts(runs, set);
  return set;
}

}  // namespace inferperf::plot
