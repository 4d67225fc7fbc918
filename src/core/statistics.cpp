#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace inferperf::core {

double Stats::percentile(int q) const {
  for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
    if (static_cast<int>(kPercentiles[i]) == q) return p[i];
  }
  throw std::invalid_argument("unsupported percentile");
}

PercentileRanks percentile_ranks(std::size_t n, double q) {
  const double pos = q / 100.0 * static_cast<double>(n - 1);
  PercentileRanks r;
  r.lo = static_cast<std::size_t>(std::floor(pos));
  r.hi = std::min(r.lo + 1, n - 1);
  r.frac = pos - static_cast<double>(r.lo);
  return r;
}

double interpolate_percentile(double at_lo, double at_hi, double frac) {
  const double diff = at_hi - at_lo;
  return frac >= 0.5 ? at_hi - diff * (1.0 - frac) : at_lo + diff * frac;
}

double percentile_linear(const std::vector<double>& sorted, double q) {
  const PercentileRanks r = percentile_ranks(sorted.size(), q);
  return interpolate_percentile(sorted[r.lo], sorted[r.hi], r.frac);
}

Stats compute_stats(std::vector<double> values) {
  Stats s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.count = static_cast<std::int64_t>(values.size());
  s.min = values.front();
  s.max = values.back();
  s.sum = std::accumulate(values.begin(), values.end(), 0.0);
  s.avg = s.sum / static_cast<double>(values.size());
  double sq = 0;
  for (double v : values) sq += (v - s.avg) * (v - s.avg);
  s.std = std::sqrt(sq / static_cast<double>(values.size()));
  for (std::size_t i = 0; i < kPercentiles.size(); ++i)
    s.p[i] = percentile_linear(values, kPercentiles[i]);
  return s;
}

}  // namespace inferperf::core
