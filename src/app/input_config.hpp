// The input_config block of the summary JSON: only what the user set, plus computed values.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "config/run_config.hpp"

namespace inferperf::app {

nlohmann::ordered_json build_input_config(const config::RunConfig& c,
                                          const std::string& artifact_dir,
                                          const std::string& benchmark_id);

}  // namespace inferperf::app
