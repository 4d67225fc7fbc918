// Timeslices (--slice-duration): the profiling records grouped by the wall-clock slice their
// request started in, each group computed as if it were a benchmark of its own (docs/metrics.md,
// Timeslices).
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "core/clock.hpp"
#include "metrics/compute.hpp"
#include "records/request_record.hpp"

namespace inferperf::metrics {

struct Timeslice {
  std::int64_t index = 0;  // 0..k-1 over the non-empty slices, in time order
  BenchmarkResult result;  // every metric of the slice's records alone; per_record left empty
};

// The slice a record belongs to: floor(wall_start_ns / (slice_duration_s * 1e9)).
double timeslice_key(const records::RequestRecord& r, double slice_duration_s,
                     const core::WallAnchor& anchor);

// The timeslices built one record at a time: a MetricsAccumulator per slice (so the columns are
// held twice while a run with --slice-duration is analysed).
class TimesliceAccumulator {
 public:
  TimesliceAccumulator(double slice_duration_s, core::WallAnchor anchor, MetricOptions options)
      : slice_duration_s_(slice_duration_s), anchor_(anchor), options_(std::move(options)) {}
  void add(const records::RequestRecord& r);
  std::vector<Timeslice> finish();

 private:
  double slice_duration_s_;
  core::WallAnchor anchor_;
  MetricOptions options_;
  std::map<double, MetricsAccumulator> slices_;
};

// Profiling records grouped by floor(wall_start_ns / (slice_duration_s * 1e9)): slices are
// aligned to multiples of the slice length since the Unix epoch, not to the run's start. Groups
// are in slice order; empty slices do not appear. Records keep their input order within a group.
std::vector<std::vector<const records::RequestRecord*>> group_by_timeslice(
    const std::vector<records::RequestRecord>& records, double slice_duration_s,
    const core::WallAnchor& anchor);

// compute_metrics() on every group of group_by_timeslice(); the records must outlive the result.
std::vector<Timeslice> compute_timeslices(const std::vector<records::RequestRecord>& records,
                                          double slice_duration_s, const core::WallAnchor& anchor,
                                          const MetricOptions& options);

}  // namespace inferperf::metrics
