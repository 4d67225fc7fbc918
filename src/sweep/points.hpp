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
  // AIPerf 0.11's variation folder: "concurrency_4", "mean_128__concurrency_4"; "" without a sweep.
  std::string folder;
  std::string label;  // inferperf's short label: "concurrency=4", "isl=128 concurrency=4"
  // AIPerf 0.11's variation label: "phases.profiling.concurrency=4, ..."
  std::string variation_label;
};

// Grid: the first parameter (in path order) varies slowest. Zip: every list must have the same
// length. Without parameters: one point with an empty folder.
core::Result<std::vector<SweepPoint>> expand_points(const std::vector<SweepParam>& params,
                                                    const std::string& sweep_type);

// An explicit plan's points in order: a named point's label, variation label and folder are its
// name; an unnamed one's come from the values it sets, as a grid point's do; a folder has every
// character but letters, digits, '.', '-' and '_' made '_'. Two points with one folder are an
// error (the second would overwrite the first).
core::Result<std::vector<SweepPoint>> explicit_sweep_points(
    const std::vector<SweepParam>& params, const std::vector<ExplicitPoint>& points);

// The points of `s`: its explicit points, else its lists as a grid or zip.
core::Result<std::vector<SweepPoint>> expand_points(const SweepArgs& s);

// "run_0001" for run 1 (docs/sweeps.md, Layout: four digits, 1-based).
std::string run_folder(int run);
// "trial_0001": a sweep point's trial 1.
std::string trial_folder(int trial);

}  // namespace inferperf::sweep
