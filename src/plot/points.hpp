// The points of a comparison, loaded, labelled by what varies between them ("c=8", "isl=128")
// and ordered by it.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plot/discovery.hpp"
#include "plot/run_data.hpp"

namespace inferperf::plot {

struct Point {
  std::string name;  // the point's folder name
  std::string label;
  std::vector<RunData> runs;  // one, or the repeated runs in profile_runs/

  // Mean over the runs that have the statistic.
  std::optional<double> mean(std::string_view tag, std::string_view stat = "avg") const;
  // GPUs seen by telemetry (the largest count of any run); 1 when unknown, for per-GPU values.
  double gpus_or_one() const;
  const RunParams& params() const { return runs.front().params; }
};

// A run as one series of the distribution and time charts.
struct RunSeries {
  const RunData* run = nullptr;
  std::string label;  // the point's label, plus " run N" when the point has several runs
  std::size_t color = 0;
};

// "c=8", "rate=2.5", "isl=128", "osl=64" for the parameters that differ between points, joined
// by ", "; with nothing differing, the one set parameter (concurrency, else rate) for a single
// point, else the folder names. Sorts the points by those parameters.
void label_and_sort(std::vector<Point>& points);

// Loads every run (throws PlotError for unreadable input), labels and sorts.
std::vector<Point> load_points(const Discovery& found);

std::vector<RunSeries> run_series(const std::vector<Point>& points);

// 8 -> "8", 2.5 -> "2.5".
std::string short_number(double v);

}  // namespace inferperf::plot
