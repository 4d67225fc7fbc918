// run_info of profile_export_aiperf.json (AIPerf 0.11): who this run is within its plan.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "dataset/conversation.hpp"

namespace inferperf::app {

// Set by the orchestrator for each child run of a repeated run or sweep: a JSON object with
// sweep_id, trial (0-based), run_label, variation_label, variation_index, variation_values.
inline constexpr const char* kRunInfoEnv = "INFERPERF_RUN_INFO";

// benchmark_id, sweep_id, random_seed, trial, run_label, variation_label, variation_index,
// variation_values, cli_command, in that order; absent values are dropped (a plain run has
// benchmark_id, random_seed when set, trial 0 and cli_command). `plan` is the environment value
// (nullptr when unset); a value that is not such an object is ignored with a warning.
nlohmann::ordered_json build_run_info(const std::string& benchmark_id,
                                      std::optional<std::uint64_t> random_seed,
                                      const std::string& cli_command, const char* plan);

// AIPerf 0.11's agent_depth of each child session (weka_trace subagents): 1 for a session a root
// session starts, 2 for one that child starts, ...; keyed by session id, roots left out (0).
std::map<std::string, int> agent_depths(const dataset::Dataset& ds);

}  // namespace inferperf::app
