#include "sweep/trial_seed.hpp"

#include "core/rng.hpp"

namespace inferperf::sweep {

std::uint64_t trial_seed(std::uint64_t base, std::string_view variation_label, int trial) {
  const std::string id =
      "variation:" + std::string(variation_label) + ":trial:" + std::to_string(trial);
  return core::derive_seed(base, id) & 0x7FFF'FFFF'FFFF'FFFFull;
}

std::optional<std::string> single_run_seed(const SweepOptions& o) {
  if (!o.random_seed || !o.vary_seed_per_trial) return o.random_seed;
  return std::to_string(trial_seed(std::stoull(*o.random_seed), "base", 0));
}

}  // namespace inferperf::sweep
