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

int sample_positive_normal_int(std::mt19937_64& rng, double mean, double stddev) {
  if (stddev <= 0) return std::max(1, static_cast<int>(std::lround(mean)));
  std::normal_distribution<double> dist(mean, stddev);
  for (int i = 0; i < 10000; ++i) {
    double x = dist(rng);
    if (x >= 0) return std::max(1, static_cast<int>(std::ceil(x)));
  }
  return std::max(1, static_cast<int>(std::lround(std::max(0.0, mean))));
}

}  // namespace inferperf::core
