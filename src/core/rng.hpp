// Named, seeded random streams: each consumer derives its own generator from the root seed and a
// fixed identifier, so adding a consumer never shifts another consumer's numbers.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

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

// "Positive normal integer": max(1, round(mean)) when stddev <= 0, else ceil of a normal draw
// truncated below at 0 by rejection, at least 1.
int sample_positive_normal_int(std::mt19937_64& rng, double mean, double stddev);

}  // namespace inferperf::core
