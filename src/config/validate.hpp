// Cross-field validation: pure checks that return every problem at once, in the order reported.
// The defaults they rely on are filled by resolve.hpp; validate_and_resolve composes the two.
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace inferperf::config {

// The checks of the options as given, before any default (empty = ok).
std::vector<std::string> validate_given_options(const RunConfig& c);

// The checks that need the resolved defaults: the concurrency against the stop condition the run
// ended up with, and the warmup load after its fallbacks.
std::vector<std::string> validate_resolved_options(const RunConfig& c);

// Checks the given options, settles what they settle even when refused (resolve_given_options),
// and when they pass fills the defaults (resolve_defaults) and checks those. Returns the errors.
std::vector<std::string> validate_and_resolve(RunConfig& c);

}  // namespace inferperf::config
