// The plot catalogue: which charts exist, what each draws, and why one was left out.
#pragma once
#include <string>
#include <vector>

#include "plot/chart.hpp"
#include "plot/points.hpp"

namespace inferperf::plot {

// Why a chart of per-request values is missing.
inline constexpr const char* kNoRecords = "no run has per-request records (profile_export.jsonl)";

struct Skipped {
  std::string name;
  std::string reason;
};

struct ChartSet {
  std::vector<Chart> charts;
  std::vector<Skipped> skipped;
  void add(Chart chart, const std::string& reason_if_empty);
};

// Every chart of the catalogue (docs/plots.md), in report order.
ChartSet build_charts(const std::vector<Point>& points);

// The groups, each in its own file.
void add_comparison_charts(const std::vector<Point>& points, ChartSet& set);
void add_distribution_charts(const std::vector<RunSeries>& runs, ChartSet& set);
void add_time_charts(const std::vector<RunSeries>& runs, ChartSet& set);
void add_telemetry_charts(const std::vector<RunSeries>& runs, ChartSet& set);

}  // namespace inferperf::plot
