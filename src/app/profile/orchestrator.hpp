// Sweeps and repeated runs: every run is its own `inferperf profile` process (a fresh client per
// run, nothing carried over, one failed run never takes the others down), written into its own
// folder; the orchestrator then reads the runs' summaries back and writes the aggregate and sweep
// summaries.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::app {

// Exit codes: 2 when any point's command line is bad (nothing is run), 130 when stopped by a
// signal (the summaries of what finished are still written), 1 when any run failed, else 0.
int run_orchestrated(const sweep::SweepArgs& args, const std::vector<std::string>& original);

// An adaptive search (args.search enabled): search_runs.cpp. The same exit codes.
int run_search(const sweep::SweepArgs& args, const std::vector<std::string>& original);

// `inferperf plot FOLDER [--output OUTPUT]` as a child process (--auto-plot); false, with a
// warning logged, when it could not be started or failed.
bool auto_plot(const std::filesystem::path& folder, const std::filesystem::path& output = {});

// --cache-salt-per-run adds a cache_salt extra input; one from --extra-inputs as well is ambiguous.
bool cache_salt_given_twice(const config::RunConfig& c);
inline constexpr const char* kCacheSaltTwice =
    "error: --cache-salt-per-run and --extra-inputs cache_salt:... both set the cache salt; give "
    "one\n";

// This executable, for re-running itself.
std::string self_executable();

}  // namespace inferperf::app
