#include "timing/intervals.hpp"

#include <cmath>

#include "core/rng.hpp"

namespace inferperf::timing {

double exponential_interval(std::mt19937_64& rng, double rate) {
  // 1 - U is in (0, 1], so the logarithm is finite.
  return -std::log(1.0 - core::uniform_unit(rng)) / rate;
}

double gamma_variate(std::mt19937_64& rng, double shape, double scale) {
  if (shape < 1.0) {
    // Gamma(k) = Gamma(k + 1) * U^(1/k).
    double u = core::uniform_unit(rng);
    while (u <= 0.0) u = core::uniform_unit(rng);
    return gamma_variate(rng, shape + 1.0, scale) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = core::normal(rng, 0.0, 1.0);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = core::uniform_unit(rng);
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v * scale;
    if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v * scale;
  }
}

IntervalGenerator::IntervalGenerator(ArrivalPattern pattern, double smoothness, std::mt19937_64 rng)
    : pattern_(pattern), smoothness_(smoothness), rng_(std::move(rng)) {}

double IntervalGenerator::next(double rate) {
  if (rate <= 0.0) return 0.0;
  switch (pattern_) {
    case ArrivalPattern::kConcurrencyBurst:
      return 0.0;
    case ArrivalPattern::kConstant:
      return 1.0 / rate;
    case ArrivalPattern::kPoisson:
      return exponential_interval(rng_, rate);
    case ArrivalPattern::kGamma:
      return gamma_variate(rng_, smoothness_, 1.0 / (rate * smoothness_));
  }
  return 0.0;
}

}  // namespace inferperf::timing
