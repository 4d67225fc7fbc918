// Inter-arrival times for request-rate modes, from distributions written here (not <random>'s,
// which differ between standard libraries) so one seed gives one schedule everywhere.
#pragma once
#include <random>

namespace inferperf::timing {

enum class ArrivalPattern { kConcurrencyBurst, kConstant, kPoisson, kGamma };

// Exponential(rate) by inversion.
double exponential_interval(std::mt19937_64& rng, double rate);
// Gamma(shape k, scale theta): Marsaglia-Tsang for k >= 1, boosted with U^(1/k) below 1.
double gamma_variate(std::mt19937_64& rng, double shape, double scale);

class IntervalGenerator {
 public:
  // `smoothness` is the gamma shape (vLLM's burstiness): 1 is Poisson, < 1 burstier, > 1 smoother.
  IntervalGenerator(ArrivalPattern pattern, double smoothness, std::mt19937_64 rng);
  // Seconds until the next arrival at `rate` requests per second (0 for concurrency bursts).
  double next(double rate);

 private:
  ArrivalPattern pattern_;
  double smoothness_;
  std::mt19937_64 rng_;
};

}  // namespace inferperf::timing
