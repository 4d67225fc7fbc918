// The capacity answer of a sweep or a search judged against SLA filters, as the slo_attainment
// chart draws it (docs/plots.md): read from the sweep_summary.json or search_history.json that
// `inferperf profile` writes at the root folder, each filter's value at each load as a percentage
// of its threshold, and the boundary (the largest load meeting every filter).
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "plot/chart.hpp"

namespace inferperf::plot {

// One SLA filter, `metric:stat:op:threshold`.
struct SloFilter {
  std::string text;  // "inter_token_latency:p99:lt:30", as the files name it
  std::string metric;
  std::string stat;
  std::string op;  // lt, le, gt, ge
  double threshold = 0;
  // lt/le: the value must stay under the threshold; gt/ge: above it.
  bool upper_bound() const { return op == "lt" || op == "le"; }
  std::string describe() const;  // "inter_token_latency p99 < 30"
};

// One load level's outcome; `value`, `percent` and `passed` hold one entry per filter.
struct SloPoint {
  double load = 0;
  std::vector<double> value;    // NaN where the run has no value (it failed)
  std::vector<double> percent;  // value / threshold x 100; NaN without a value or a threshold
  std::vector<bool> passed;
  bool meets = false;  // every filter passed (meets_sla, feasible)
};

struct SloData {
  std::filesystem::path source;  // the file read
  bool search = false;           // search_history.json; else sweep_summary.json
  std::string axis;              // "concurrency": the swept parameter or the search's dimension
  std::vector<SloFilter> filters;
  std::vector<SloPoint> points;         // by load, ascending (ties in file order)
  std::optional<double> boundary;       // the capacity: the largest load meeting every filter
  std::optional<double> first_failure;  // the smallest load above it breaking a filter
  std::vector<double> passing_above;    // sweep: passing loads above first_failure, not counted
  std::optional<double> range_lo, range_hi;  // search: the dimension's range
};

// What one file gives: data to draw, or else why not. Both empty: the file judged nothing
// against SLA filters (a plain sweep), which is not worth a note.
struct SloRead {
  std::optional<SloData> data;
  std::string skip_reason;
};

// Throw PlotError (exit 2) naming the file and field when a field has the wrong type.
SloRead slo_from_sweep_summary(const nlohmann::json& summary, const std::filesystem::path& source);
SloRead slo_from_search_history(const nlohmann::json& history, const std::filesystem::path& source);
// Reads either file by its name; throws PlotError (exit 2) when it is not valid JSON.
SloRead read_slo_file(const std::filesystem::path& file);

// The sweep's boundary: by load ascending, the last passing load before the first load that
// fails above a passing one. A pass above that failure is noise around the limit, not capacity.
struct SloBoundary {
  std::optional<double> largest_passing;
  std::optional<double> first_failing;
};
SloBoundary sweep_boundary(const std::vector<SloPoint>& points);

// sweep_summary.json and search_history.json in each path and in its immediate sub-folders, each
// file once, in the order found.
std::vector<std::filesystem::path> find_slo_files(const std::vector<std::filesystem::path>& paths);

// The chart of one file's data, named `name`.
Chart slo_chart(const SloData& data, const std::string& name);

// 30 -> "30", 35.0169 -> "35.02", 12345.6 -> "12346": values in titles and legends.
std::string slo_number(double v);

}  // namespace inferperf::plot
