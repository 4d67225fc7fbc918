// Named, seeded random streams: each consumer derives its own generator from the root seed and a
// fixed identifier, so adding a consumer never shifts another consumer's numbers.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

namespace inferperf::core {

class RngFactory {
 public:
  // Without a seed the root comes from the OS entropy source (non-reproducible runs).
  explicit RngFactory(std::optional<std::uint64_t> root_seed);
  std::mt19937_64 stream(std::string_view identifier) const;
  std::uint64_t root_seed() const { return root_; }

 private:
  std::uint64_t root_;
};

// First 8 bytes (big-endian) of sha256("<root>:<identifier>").
std::uint64_t derive_seed(std::uint64_t root, std::string_view identifier);

// Distributions written here rather than taken from <random>, whose distributions are
// implementation-defined: one seed must give byte-identical datasets with every compiler and
// standard library. mt19937_64 itself is fully specified by the standard.

// Uniform integer in [0, n) without modulo bias (rejection of the incomplete last block).
std::uint64_t uniform_index(std::mt19937_64& rng, std::uint64_t n);
// Uniform double in [0, 1) from the top 53 bits.
double uniform_unit(std::mt19937_64& rng);
// Normal deviate (Box-Muller, one value per call).
double normal(std::mt19937_64& rng, double mean, double stddev);
// Fisher-Yates shuffle using uniform_index.
template <typename T>
void shuffle(std::vector<T>& v, std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) {
    std::swap(v[i - 1], v[static_cast<std::size_t>(uniform_index(rng, i))]);
  }
}

// "Positive normal integer": max(1, round(mean)) when stddev <= 0, else ceil of a normal draw
// truncated below at 0 by rejection, at least 1.
int sample_positive_normal_int(std::mt19937_64& rng, double mean, double stddev);

}  // namespace inferperf::core
