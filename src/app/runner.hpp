// The profile command: plan (config, dataset, requests), run (issuer, workers, collector),
// analyse (metrics, exports) and choose the exit code.
#pragma once
#include "config/run_config.hpp"

namespace inferperf::app {

// Exit codes as product decisions: 0 ok, 1 no valid record or export failure, 2 bad configuration,
// 130 stopped by a signal after exporting.
int run_profile(config::RunConfig config);

}  // namespace inferperf::app
