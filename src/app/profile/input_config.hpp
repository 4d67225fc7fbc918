// The input_config block of every JSON export: AIPerf 0.11's resolved configuration body (models,
// endpoint, datasets, phases, artifacts, ...), only what the user set plus computed values.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "config/run_config.hpp"

namespace inferperf::app {

nlohmann::ordered_json build_input_config(const config::RunConfig& c,
                                          const std::string& artifact_dir);

// The --extra-inputs keys whose values are credentials (core::is_secret_name); their values are
// sent but written as "<redacted>" in inputs.json and the raw export's payloads.
std::vector<std::string> secret_extra_keys(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra);

}  // namespace inferperf::app
