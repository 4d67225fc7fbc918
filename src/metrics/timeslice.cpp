#include "metrics/timeslice.hpp"

#include <cmath>
#include <limits>
#include <map>

namespace inferperf::metrics {

double timeslice_key(const records::RequestRecord& r, double slice_duration_s,
                     const core::WallAnchor& anchor) {
  const double slice_ns = slice_duration_s * 1e9;
  // The slice number as a double, like AIPerf's int(start_ns / slice_ns): no overflow even for
  // very short slices.
  return std::floor(static_cast<double>(anchor.to_wall(r.start_ns)) / slice_ns);
}

void TimesliceAccumulator::add(const records::RequestRecord& r) {
  if (r.phase != records::Phase::kProfiling) return;
  auto it = slices_.find(timeslice_key(r, slice_duration_s_, anchor_));
  if (it == slices_.end()) {
    MetricsAccumulator acc(options_);
    acc.skip_token_facts();
    acc.set_memory_budget(std::numeric_limits<std::size_t>::max());  // spilled from here, together
    it = slices_.emplace(timeslice_key(r, slice_duration_s_, anchor_), std::move(acc)).first;
  }
  MetricsAccumulator& slice = it->second;
  const std::size_t before = slice.held_values();
  slice.add(r);
  held_values_ += slice.held_values() - before;
  if (spill_failed_ || held_values_ <= budget_ / sizeof(double)) return;
  for (auto& [key, acc] : slices_) {
    const std::size_t held = acc.held_values();
    if (!acc.spill_all(scratch_)) {
      spill_failed_ = true;
      break;
    }
    spilled_values_ += held;
    held_values_ -= held;
  }
}

std::vector<Timeslice> TimesliceAccumulator::finish() {
  std::vector<Timeslice> out;
  out.reserve(slices_.size());
  for (auto& [key, acc] : slices_) {
    Timeslice t;
    t.index = static_cast<std::int64_t>(out.size());
    t.result = acc.finish();
    out.push_back(std::move(t));
  }
  slices_.clear();
  return out;
}

std::vector<std::vector<const records::RequestRecord*>> group_by_timeslice(
    const std::vector<records::RequestRecord>& records, double slice_duration_s,
    const core::WallAnchor& anchor) {
  std::map<double, std::vector<const records::RequestRecord*>> slices;
  for (const auto& r : records) {
    if (r.phase != records::Phase::kProfiling) continue;
    slices[timeslice_key(r, slice_duration_s, anchor)].push_back(&r);
  }
  std::vector<std::vector<const records::RequestRecord*>> out;
  out.reserve(slices.size());
  for (auto& [key, group] : slices) out.push_back(std::move(group));
  return out;
}

std::vector<Timeslice> compute_timeslices(const std::vector<records::RequestRecord>& records,
                                          double slice_duration_s, const core::WallAnchor& anchor,
                                          const MetricOptions& options) {
  TimesliceAccumulator acc(slice_duration_s, anchor, options);
  for (const auto& r : records) acc.add(r);
  return acc.finish();
}

}  // namespace inferperf::metrics
