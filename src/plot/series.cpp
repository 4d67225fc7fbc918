#include "plot/series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/pareto.hpp"

namespace inferperf::plot {

namespace {

std::vector<double> finite(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double d) { return !std::isfinite(d); }), v.end());
  return v;
}

double percentile_sorted(const std::vector<double>& s, double pct) {
  if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double rank = pct / 100.0 * static_cast<double>(s.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = std::min(lo + 1, s.size() - 1);
  return s[lo] + (s[hi] - s[lo]) * (rank - static_cast<double>(lo));
}

}  // namespace

std::vector<double> shared_bin_edges(const std::vector<std::vector<double>>& sets, std::size_t bins,
                                     bool whole_numbers) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (const auto& s : sets)
    for (double v : s)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (!std::isfinite(lo) || bins == 0) return {};
  if (whole_numbers) {
    lo = std::floor(lo);
    hi = std::floor(hi);
    const double width = std::max(1.0, std::ceil((hi - lo + 1) / static_cast<double>(bins)));
    std::vector<double> edges;
    for (double e = lo - 0.5; e <= hi + 0.5 + 1e-9 || edges.size() < 2; e += width)
      edges.push_back(e);
    if (edges.back() < hi + 0.5) edges.push_back(edges.back() + width);
    return edges;
  }
  // One value (or all equal): a unit-wide bin around it, so it still shows.
  if (hi - lo <= 0) {
    lo -= 0.5;
    hi += 0.5;
  }
  std::vector<double> edges(bins + 1);
  for (std::size_t i = 0; i <= bins; ++i)
    edges[i] = lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(bins);
  return edges;
}

std::vector<double> histogram(const std::vector<double>& values, const std::vector<double>& edges) {
  if (edges.size() < 2) return {};
  const std::size_t bins = edges.size() - 1;
  std::vector<double> counts(bins, 0.0);
  const double lo = edges.front(),
               width = (edges.back() - edges.front()) / static_cast<double>(bins);
  for (double v : values) {
    if (!std::isfinite(v) || v < lo || v > edges.back()) continue;
    auto i = static_cast<std::size_t>((v - lo) / width);
    counts[std::min(i, bins - 1)] += 1;
  }
  return counts;
}

Curve cdf(std::vector<double> values) {
  values = finite(std::move(values));
  std::sort(values.begin(), values.end());
  Curve c;
  const double n = static_cast<double>(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Equal values: one step to the last of them.
    if (i + 1 < values.size() && values[i + 1] == values[i]) continue;
    c.x.push_back(values[i]);
    c.y.push_back(100.0 * static_cast<double>(i + 1) / n);
  }
  return c;
}

double percentile(std::vector<double> values, double pct) {
  values = finite(std::move(values));
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, pct);
}

Curve rolling_percentile(const std::vector<double>& x, const std::vector<double>& values,
                         std::size_t window, double pct, std::size_t points) {
  Curve c;
  const std::size_t n = std::min(x.size(), values.size());
  if (n == 0) return c;
  window = std::max<std::size_t>(window, 1);
  const std::size_t step = std::max<std::size_t>(1, n / std::max<std::size_t>(points, 1));
  for (std::size_t i = (n - 1) % step; i < n; i += step) {
    const std::size_t first = i + 1 >= window ? i + 1 - window : 0;
    c.x.push_back(x[i]);
    c.y.push_back(
        percentile(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(first),
                                       values.begin() + static_cast<std::ptrdiff_t>(i) + 1),
                   pct));
  }
  return c;
}

std::vector<std::size_t> pareto_frontier(const std::vector<XY>& points, bool x_larger_is_better) {
  std::vector<std::pair<double, double>> xy;
  for (const auto& p : points) xy.emplace_back(p.x, p.y);
  const auto mask = core::pareto_mask(xy, x_larger_is_better, true);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (mask[i]) out.push_back(i);
  std::sort(out.begin(), out.end(),
            [&](std::size_t a, std::size_t b) { return points[a].x < points[b].x; });
  return out;
}

double throughput_bin_seconds(const std::vector<RequestRow>& rows, std::size_t bins) {
  double end = 0;
  for (const auto& r : rows)
    if (std::isfinite(r.end_s)) end = std::max(end, r.end_s);
  return std::max(0.01, end / static_cast<double>(std::max<std::size_t>(bins, 1)));
}

Curve dispersed_throughput(const std::vector<RequestRow>& rows, double bin_s) {
  Curve c;
  if (bin_s <= 0) return c;
  double end = 0;
  for (const auto& r : rows)
    if (std::isfinite(r.end_s)) end = std::max(end, r.end_s);
  const auto bins = static_cast<std::size_t>(std::floor(end / bin_s)) + 1;
  std::vector<double> tokens(bins, 0.0);
  for (const auto& r : rows) {
    if (r.error || !std::isfinite(r.osl) || r.osl <= 0 || !std::isfinite(r.first_token_s)) continue;
    const double a = std::max(0.0, r.first_token_s), b = std::max(a, r.end_s);
    if (b - a <= 0) {
      tokens[std::min(bins - 1, static_cast<std::size_t>(a / bin_s))] += r.osl;
      continue;
    }
    const double rate = r.osl / (b - a);
    for (auto i = static_cast<std::size_t>(a / bin_s); i < bins; ++i) {
      const double lo = std::max(a, static_cast<double>(i) * bin_s);
      const double hi = std::min(b, static_cast<double>(i + 1) * bin_s);
      if (hi <= lo) break;
      tokens[i] += rate * (hi - lo);
    }
  }
  for (std::size_t i = 0; i < bins; ++i) {
    c.x.push_back(static_cast<double>(i) * bin_s);
    c.y.push_back(tokens[i] / bin_s);
  }
  return c;
}

}  // namespace inferperf::plot
