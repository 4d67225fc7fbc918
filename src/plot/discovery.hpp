// Finding the runs under the paths given to `inferperf plot`: one run folder, several run
// folders side by side (artifacts/c1, c2...), sweeps (concurrency_8/, concurrency_4-isl_128/...)
// and repeated runs (profile_runs/run_0001...).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "artifacts/run_folder.hpp"

namespace inferperf::plot {

inline constexpr const char* kSummaryFile = artifacts::kSummaryJsonFileName;

// One point of a comparison: a run folder, or a folder of repeated runs of one configuration.
struct PointDirs {
  std::filesystem::path dir;                // the run folder, or the folder holding profile_runs/
  std::vector<std::filesystem::path> runs;  // run folders, in run order (at least one)
};

struct Discovery {
  std::vector<PointDirs> points;   // in the order found (callers sort by parameters)
  std::vector<std::string> notes;  // folders looked at and passed over, for --verbose
};

bool is_run_folder(const std::filesystem::path& dir);

// Throws PlotError (exit 2) naming the path when a path is missing, is not a folder, or holds no
// run. The plot output folder of an earlier call is never taken for a run.
Discovery discover_runs(const std::vector<std::filesystem::path>& paths);

}  // namespace inferperf::plot
