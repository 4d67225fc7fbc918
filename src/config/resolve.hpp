// Default resolution: what a run derives from the options it was given (the arrival patterns, the
// stop condition, the warmup load, the sampling strategy). No checks: validate.hpp reports those.
#pragma once
#include <optional>
#include <string>

#include "config/run_config.hpp"

namespace inferperf::config {

// One phase's arrival pattern as resolved from its rate, pattern and smoothness, and the error
// those options give ("" = none). On an error, `pattern` is the value reached when it was found.
// Resolving a resolved pattern again gives the same pattern and the same error.
struct ResolvedPattern {
  std::optional<ArrivalPattern> pattern;
  std::string error;
};
ResolvedPattern resolve_arrival_pattern(std::optional<double> rate,
                                        std::optional<ArrivalPattern> pattern,
                                        std::optional<double> smoothness,
                                        const std::string& prefix);

// Any warmup stop condition asks for a warmup phase (before --no-warmup is applied).
bool has_warmup_stop(const PhaseLoad& w);

// What the given options settle even when a check refuses them (so a caller holding a refused
// config sees the same values as ever): the profiling arrival pattern and warmup_enabled.
void resolve_given_options(RunConfig& c);

// The defaults of an accepted config: the sampling strategy, a stop condition and concurrency
// (with a warning for each), the warmup load's fallbacks to the profiling one, and the --goodput
// targets.
void resolve_defaults(RunConfig& c);

}  // namespace inferperf::config
