// Timeslices (--slice-duration): the profiling records grouped by the wall-clock slice their
// request started in, each group computed as if it were a benchmark of its own (docs/metrics.md,
// Timeslices).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
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
// The slices share one memory budget (column_memory_budget()) and one scratch file: past the
// budget every slice's columns spill together, so the slices of a long run hold no more than one
// accumulator does, with one file descriptor.
class TimesliceAccumulator {
 public:
  TimesliceAccumulator(double slice_duration_s, core::WallAnchor anchor, MetricOptions options)
      : slice_duration_s_(slice_duration_s), anchor_(anchor), options_(std::move(options)) {}
  void add(const records::RequestRecord& r);
  std::vector<Timeslice> finish();
  void set_memory_budget(std::size_t bytes) { budget_ = bytes; }
  std::size_t spilled_values() const { return spilled_values_; }
  bool spill_failed() const { return spill_failed_; }

 private:
  double slice_duration_s_;
  core::WallAnchor anchor_;
  MetricOptions options_;
  std::map<double, MetricsAccumulator> slices_;
  std::size_t budget_ = column_memory_budget();
  std::shared_ptr<ColumnScratch> scratch_ = std::make_shared<ColumnScratch>();
  std::size_t held_values_ = 0;  // over every slice
  std::size_t spilled_values_ = 0;
  bool spill_failed_ = false;
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
