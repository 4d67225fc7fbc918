// Exact statistics over all values: numpy-compatible linear percentiles and population std.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace inferperf::core {

inline constexpr std::array<double, 9> kPercentiles = {1, 5, 10, 25, 50, 75, 90, 95, 99};

struct Stats {
  double avg = 0, min = 0, max = 0, std = 0, sum = 0;
  std::array<double, 9> p{};  // in kPercentiles order
  std::int64_t count = 0;

  double percentile(int q) const;  // q must be one of kPercentiles
};

// Where numpy.percentile(x, q) ("linear") reads a sorted column of n > 0 values: between the
// values at ranks lo and hi (0-based), `frac` of the way.
struct PercentileRanks {
  std::size_t lo = 0, hi = 0;
  double frac = 0;
};
PercentileRanks percentile_ranks(std::size_t n, double q);
// numpy's interpolation between the two values (its _lerp form: exact at the endpoints, monotone).
double interpolate_percentile(double at_lo, double at_hi, double frac);
// numpy.percentile(x, q) with the default "linear" method; `sorted` must be ascending, non-empty.
double percentile_linear(const std::vector<double>& sorted, double q);
// Statistics of `values` (taken by value: sorted in place). Empty input gives count 0.
Stats compute_stats(std::vector<double> values);

}  // namespace inferperf::core
