#include "plot/charts.hpp"

#include <algorithm>

namespace inferperf::plot {

namespace {

constexpr std::size_t kMaxPointsPerSeries = 4000;

template <typename T>
void keep_every(std::vector<T>& v, std::size_t k) {
  if (v.empty()) return;
  std::vector<T> out;
  for (std::size_t i = (v.size() - 1) % k; i < v.size(); i += k) out.push_back(v[i]);
  v = std::move(out);
}

}  // namespace

std::size_t thin(Chart& chart, std::size_t max_points) {
  std::size_t most = 1;
  for (auto& s : chart.series) {
    if (s.style == Style::kBoxes || s.x.size() <= max_points) continue;
    const std::size_t k = (s.x.size() + max_points - 1) / max_points;
    keep_every(s.x, k);
    keep_every(s.y, k);
    keep_every(s.x2, k);
    keep_every(s.labels, k);
    most = std::max(most, k);
  }
  return most;
}

void ChartSet::add(Chart chart, const std::string& reason_if_empty) {
  if (const std::size_t k = thin(chart, kMaxPointsPerSeries); k > 1)
    chart.caption += " Long series thinned to every " + std::to_string(k) + "th point.";
  if (has_points(chart))
    charts.push_back(std::move(chart));
  else
    skipped.push_back({chart.name, reason_if_empty});
}

ChartSet build_charts(const std::vector<Point>& points,
                      const std::vector<std::filesystem::path>& roots) {
  ChartSet set;
  const auto runs = run_series(points);
  // The capacity answer first: it is what a sweep or search against SLA filters was run for.
  if (!roots.empty()) add_slo_charts(roots, set);
  add_comparison_charts(points, set);
  add_distribution_charts(runs, set);
  add_time_charts(runs, set);
  add_telemetry_charts(runs, set);
  return set;
}

}  // namespace inferperf::plot
