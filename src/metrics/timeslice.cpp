#include "metrics/timeslice.hpp"

#include <cmath>
#include <map>

namespace inferperf::metrics {

std::vector<std::vector<const records::RequestRecord*>> group_by_timeslice(
    const std::vector<records::RequestRecord>& records, double slice_duration_s,
    const core::WallAnchor& anchor) {
  const double slice_ns = slice_duration_s * 1e9;
  // Keyed by the slice number as a double, like AIPerf's int(start_ns / slice_ns): no overflow
  // even for very short slices.
  std::map<double, std::vector<const records::RequestRecord*>> slices;
  for (const auto& r : records) {
    if (r.phase != records::Phase::kProfiling) continue;
    const double wall_start = static_cast<double>(anchor.to_wall(r.start_ns));
    slices[std::floor(wall_start / slice_ns)].push_back(&r);
  }
  std::vector<std::vector<const records::RequestRecord*>> out;
  out.reserve(slices.size());
  for (auto& [key, group] : slices) out.push_back(std::move(group));
  return out;
}

std::vector<Timeslice> compute_timeslices(const std::vector<records::RequestRecord>& records,
                                          double slice_duration_s, const core::WallAnchor& anchor,
                                          const MetricOptions& options) {
  std::vector<Timeslice> out;
  for (const auto& group : group_by_timeslice(records, slice_duration_s, anchor)) {
    Timeslice t;
    t.index = static_cast<std::int64_t>(out.size());
    t.result = compute_metrics(group, options);
    t.result.per_record = {};  // per-record values are exported for the whole run only
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace inferperf::metrics
