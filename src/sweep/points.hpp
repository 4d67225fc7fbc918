// The points of a sweep: every combination (grid) or the lists side by side (zip), each with the
// sub-folder it is written to and the label the summary and plots show.
#pragma once
#include <string>
#include <vector>

#include "core/error.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {

struct SweepPoint {
  std::vector<std::string> values;  // one per SweepParam, in params order
  std::string folder;               // "concurrency_4", "concurrency_4-isl_128"; "" without a sweep
  std::string label;                // "concurrency=4", "concurrency=4 isl=128"
};

// Grid: the first parameter varies slowest. Zip: every list must have the same length. Without
// parameters: one point with an empty folder.
core::Result<std::vector<SweepPoint>> expand_points(const std::vector<SweepParam>& params,
                                                    const std::string& sweep_type);

// "run_0001" for run 1 (docs/sweeps.md, Layout: four digits, 1-based).
std::string run_folder(int run);

}  // namespace inferperf::sweep
