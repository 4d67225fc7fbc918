// From the run configuration to what each phase's scheduler needs, and how a run is named.
#pragma once
#include <string>

#include "config/run_config.hpp"
#include "timing/conversation_sampler.hpp"
#include "timing/load_plan.hpp"

namespace inferperf::app {

timing::SamplingStrategy sampling_strategy_of(config::SamplingStrategy s);

// The warmup phase: its own stop conditions and load, never cancellation (as AIPerf). Sharded
// runs get this shard's share (timing/shard.hpp).
timing::PhasePlan warmup_plan(const config::RunConfig& c);
// The profiling phase (this shard's share). A fixed schedule's zero (ms) is only known once the
// file is read.
timing::PhasePlan profiling_plan(const config::RunConfig& c, double schedule_zero_ms);
// Why this shard's share of a phase cannot be cut ("" when it can, or when not sharded).
std::string shard_problem(const config::RunConfig& c);

// One line for the log: "5 req/s poisson, concurrency 4, 100 requests".
std::string describe(const timing::PhasePlan& p);

// The artifact folder's leaf when --artifact-dir is not given (docs/decisions.md, Artifact folder
// leaf name).
std::string artifact_leaf(const config::RunConfig& c);

}  // namespace inferperf::app
