// Inter-arrival distributions against their CDFs (one-sample Kolmogorov-Smirnov, fixed seeds) and
// gamma with smoothness 1 against Poisson (two-sample KS).
#include "timing/intervals.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace inferperf::timing {
namespace {

// Regularized lower incomplete gamma P(a, x): series below a + 1, continued fraction above.
double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double lg = std::lgamma(a);
  if (x < a + 1) {
    double sum = 1 / a, term = sum;
    for (int n = 1; n < 1000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * 1e-15) break;
    }
    return sum * std::exp(-x + a * std::log(x) - lg);
  }
  double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (std::fabs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < 1e-15) break;
  }
  return 1 - std::exp(-x + a * std::log(x) - lg) * h;
}

std::vector<double> sample(ArrivalPattern pattern, double smoothness, double rate, int n,
                           std::uint64_t seed) {
  IntervalGenerator g(pattern, smoothness, std::mt19937_64(seed));
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = g.next(rate);
  std::sort(v.begin(), v.end());
  return v;
}

double ks_statistic(const std::vector<double>& sorted, const std::function<double(double)>& cdf) {
  double d = 0;
  const double n = static_cast<double>(sorted.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const double f = cdf(sorted[i]);
    d = std::max({d, f - i / n, (i + 1) / n - f});
  }
  return d;
}

constexpr int kN = 20000;
const double kCritical = 1.95 / std::sqrt(kN);  // alpha = 0.001

TEST(Intervals, ConstantIsOneOverRate) {
  IntervalGenerator g(ArrivalPattern::kConstant, 1, std::mt19937_64(1));
  EXPECT_DOUBLE_EQ(g.next(250), 0.004);
  EXPECT_DOUBLE_EQ(g.next(0), 0.0);
  IntervalGenerator burst(ArrivalPattern::kConcurrencyBurst, 1, std::mt19937_64(1));
  EXPECT_DOUBLE_EQ(burst.next(10), 0.0);
}

TEST(Intervals, PoissonIsExponential) {
  const double rate = 40;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    auto v = sample(ArrivalPattern::kPoisson, 1, rate, kN, seed);
    const double d = ks_statistic(v, [&](double x) { return 1 - std::exp(-rate * x); });
    EXPECT_LT(d, kCritical) << "seed " << seed;
    double mean = 0;
    for (double x : v) mean += x;
    EXPECT_NEAR(mean / kN, 1 / rate, 0.03 / rate);
  }
}

TEST(Intervals, GammaMatchesItsDistributionForEverySmoothness) {
  const double rate = 10;
  for (double k : {0.25, 0.5, 1.0, 2.5, 8.0}) {
    auto v = sample(ArrivalPattern::kGamma, k, rate, kN, 7);
    const double theta = 1 / (rate * k);
    const double d = ks_statistic(v, [&](double x) { return gamma_p(k, x / theta); });
    EXPECT_LT(d, kCritical) << "smoothness " << k;
    double mean = 0;
    for (double x : v) mean += x;
    EXPECT_NEAR(mean / kN, 1 / rate, 0.05 / rate) << "the mean interval is 1/rate";
  }
}

TEST(Intervals, GammaWithSmoothnessOneIsPoissonInDistribution) {
  auto g = sample(ArrivalPattern::kGamma, 1.0, 5, kN, 11);
  auto p = sample(ArrivalPattern::kPoisson, 1.0, 5, kN, 12);
  // Two-sample KS: sup |F_g - F_p| over the merged sample.
  std::size_t i = 0, j = 0;
  double d = 0;
  while (i < g.size() && j < p.size()) {
    if (g[i] <= p[j])
      ++i;
    else
      ++j;
    d = std::max(d,
                 std::fabs(static_cast<double>(i) / g.size() - static_cast<double>(j) / p.size()));
  }
  EXPECT_LT(d, 1.95 * std::sqrt(2.0 / kN));
}

TEST(Intervals, SameSeedSameSchedule) {
  EXPECT_EQ(sample(ArrivalPattern::kGamma, 0.7, 3, 100, 5),
            sample(ArrivalPattern::kGamma, 0.7, 3, 100, 5));
  EXPECT_NE(sample(ArrivalPattern::kPoisson, 1, 3, 100, 5),
            sample(ArrivalPattern::kPoisson, 1, 3, 100, 6));
}

}  // namespace
}  // namespace inferperf::timing
