// The plot catalogue: which charts exist, what each draws, and why one was left out.
#pragma once
#include <filesystem>
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

// Every chart of the catalogue (docs/plots.md), in report order. `roots` are the folders given to
// `inferperf plot`, where a sweep or search leaves its SLA verdicts (slo_attainment); none: that
// chart is not considered.
ChartSet build_charts(const std::vector<Point>& points,
                      const std::vector<std::filesystem::path>& roots = {});

// The groups, each in its own file.
void add_comparison_charts(const std::vector<Point>& points, ChartSet& set);
void add_distribution_charts(const std::vector<RunSeries>& runs, ChartSet& set);
void add_time_charts(const std::vector<RunSeries>& runs, ChartSet& set);
void add_telemetry_charts(const std::vector<RunSeries>& runs, ChartSet& set);
void add_slo_charts(const std::vector<std::filesystem::path>& roots, ChartSet& set);

}  // namespace inferperf::plot
