// The profile command: plan (config, dataset, requests), run (issuer, workers, collector),
// analyse (metrics, exports) and choose the exit code.
#pragma once
#include <filesystem>

#include "config/run_config.hpp"

namespace inferperf::app {

// Exit codes as product decisions: 0 ok, 1 no valid record or export failure, 2 bad configuration,
// 130 stopped by a signal after exporting.
// `artifact_dir_out`, when given, receives the artifact folder once it is known (for --auto-plot).
int run_profile(config::RunConfig config, std::filesystem::path* artifact_dir_out = nullptr);

}  // namespace inferperf::app
