// AIPerf 0.11's --vary-seed-per-trial: every trial of every variation gets its own seed, derived
// from the base seed, the variation's label and the trial's index.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {

// The first 8 bytes (big-endian) of SHA-256("<base>:variation:<label>:trial:<trial>"), top bit
// cleared (a whole number a --random-seed takes); `trial` counts from 0, `label` is the variation
// label ("base" without a sweep).
std::uint64_t trial_seed(std::uint64_t base, std::string_view variation_label, int trial);

// The seed of a run that is neither a sweep nor repeated: --random-seed, or with
// --vary-seed-per-trial the seed of trial 0 of the variation "base".
std::optional<std::string> single_run_seed(const SweepOptions& o);

}  // namespace inferperf::sweep
