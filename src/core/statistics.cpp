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

double percentile_linear(const std::vector<double>& sorted, double q) {
  const double pos = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  // numpy's _lerp form: exact at the endpoints and monotone.
  const double a = sorted[lo], b = sorted[hi];
  const double diff = b - a;
  return frac >= 0.5 ? b - diff * (1.0 - frac) : a + diff * frac;
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
