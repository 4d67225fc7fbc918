// Cross-field validation and default resolution; returns every problem at once.
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace inferperf::config {

// Fills computed defaults (concurrency, request count) and returns the list of errors (empty = ok).
std::vector<std::string> validate_and_resolve(RunConfig& c);

}  // namespace inferperf::config
