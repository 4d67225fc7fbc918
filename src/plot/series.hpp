// The arithmetic behind the charts, free of files and rendering: bins, CDFs, Pareto frontiers,
// token throughput spread over time, rolling percentiles.
#pragma once
#include <cstddef>
#include <vector>

#include "plot/run_data.hpp"

namespace inferperf::plot {

// `bins` equal-width bins spanning every finite value of all `sets` (one shared axis, so
// overlaid histograms compare); edges.size() == bins + 1, empty when there is no finite value.
// With `whole_numbers` (token counts) the bins are whole numbers wide and centred on them.
std::vector<double> shared_bin_edges(const std::vector<std::vector<double>>& sets, std::size_t bins,
                                     bool whole_numbers = false);
// Count of finite values per bin; the last bin includes its upper edge.
std::vector<double> histogram(const std::vector<double>& values, const std::vector<double>& edges);

struct Curve {
  std::vector<double> x;
  std::vector<double> y;
};

// Empirical CDF of the finite values: x ascending, y the percentage of values <= x.
Curve cdf(std::vector<double> values);

// Linear-interpolated percentile (numpy's default) of the finite values; NaN when none.
double percentile(std::vector<double> values, double pct);

// Percentile of the window of `window` consecutive values ending at each of about `points`
// evenly spaced indices (fewer values at the start; the last index always included), against x
// at those indices. Bounded work however many requests a run has.
Curve rolling_percentile(const std::vector<double>& x, const std::vector<double>& values,
                         std::size_t window, double pct, std::size_t points = 400);

struct XY {
  double x = 0;
  double y = 0;
};
// Indices of the points no other point beats on both axes (y always larger-is-better; x
// smaller-is-better unless `x_larger_is_better`), ordered by x.
std::vector<std::size_t> pareto_frontier(const std::vector<XY>& points, bool x_larger_is_better);

// Output tokens per second over time: each successful request's output tokens spread evenly over
// [first token, end] and summed per bin of `bin_s` seconds from t = 0. x holds bin starts.
Curve dispersed_throughput(const std::vector<RequestRow>& rows, double bin_s);
// A bin width giving about `bins` bins over the requests' span, at least 10 ms.
double throughput_bin_seconds(const std::vector<RequestRow>& rows, std::size_t bins);

}  // namespace inferperf::plot
