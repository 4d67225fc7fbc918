#include "core/rng.hpp"

#include <openssl/sha.h>

#include <cmath>
#include <string>

namespace inferperf::core {

std::uint64_t derive_seed(std::uint64_t root, std::string_view identifier) {
  std::string key = std::to_string(root);
  key += ':';
  key += identifier;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(key.data()), key.size(), digest);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | digest[i];
  return v;
}

RngFactory::RngFactory(std::optional<std::uint64_t> root_seed) {
  if (root_seed) {
    root_ = *root_seed;
  } else {
    std::random_device rd;
    root_ = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }
}

std::mt19937_64 RngFactory::stream(std::string_view identifier) const {
  return std::mt19937_64(derive_seed(root_, identifier));
}

std::uint64_t uniform_index(std::mt19937_64& rng, std::uint64_t n) {
  if (n <= 1) return 0;
  const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
  for (;;) {
    const std::uint64_t x = rng();
    if (x <= limit) return x % n;
  }
}

double uniform_unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

double normal(std::mt19937_64& rng, double mean, double stddev) {
  double u1 = uniform_unit(rng);
  while (u1 <= 0.0) u1 = uniform_unit(rng);
  const double u2 = uniform_unit(rng);
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

int sample_positive_normal_int(std::mt19937_64& rng, double mean, double stddev) {
  if (stddev <= 0) return std::max(1, static_cast<int>(std::lround(mean)));
  for (int i = 0; i < 10000; ++i) {
    double x = normal(rng, mean, stddev);
    if (x >= 0) return std::max(1, static_cast<int>(std::ceil(x)));
  }
  return std::max(1, static_cast<int>(std::lround(std::max(0.0, mean))));
}

}  // namespace inferperf::core
