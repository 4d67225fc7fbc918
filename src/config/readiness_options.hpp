// The checks of the readiness and network-latency options (cli_readiness.cpp), run with the other
// checks of the options as given (validate.cpp).
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace inferperf::config {

// --network-latency-mean not with --network-latency-automatic; --network-latency-ping-interval
// only with automatic (the numbers' ranges are numeric_ranges.cpp's). One message per problem.
void validate_readiness_options(const RunConfig& c, std::vector<std::string>& errors);

}  // namespace inferperf::config
