#include <cmath>

#include "core/version.hpp"
#include "report/export_parts.hpp"
#include "report/exporters.hpp"
#include "report/format.hpp"

namespace inferperf::report {

namespace {

nlohmann::ordered_json number(double v, bool integral) {
  if (!std::isfinite(v)) return nullptr;
  if (integral) return static_cast<std::int64_t>(std::llround(v));
  return v;
}

// Position of a tag in the catalogue; the catalogue lists AIPerf's declared fields, then its other
// tags, then inferperf's own.
std::size_t position(std::string_view tag) {
  const auto& all = metrics::catalogue();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].tag == tag) return i;
  }
  return all.size();
}

}  // namespace

nlohmann::ordered_json metric_object(const metrics::MetricResult& m) {
  nlohmann::ordered_json o;
  o["unit"] = m.info->unit;
  if (m.scalar) {
    o["avg"] = number(m.value, m.info->integral);
    return o;
  }
  const auto& s = m.stats;
  o["avg"] = s.avg;
  for (std::size_t i = 0; i < core::kPercentiles.size(); ++i) {
    o["p" + std::to_string(static_cast<int>(core::kPercentiles[i]))] = s.p[i];
  }
  o["min"] = s.min;
  o["max"] = s.max;
  o["std"] = s.std;
  // Derived metrics with a distribution (network_adjusted_*) have no count, as in AIPerf 0.11.
  if (m.info->kind != metrics::MetricKind::kDerived) o["count"] = s.count;
  o["sum"] = s.sum;
  return o;
}

nlohmann::ordered_json summary_json(const metrics::BenchmarkResult& result,
                                    const ReportContext& ctx) {
  const std::size_t first_other = position("time_to_first_output_token");
  const std::size_t first_extra = position("schedule_lag");
  nlohmann::ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["aiperf_version"] = kAiperfFormatVersion;
  j["benchmark_id"] = ctx.benchmark_id;
  auto emit_range = [&](std::size_t from, std::size_t to) {
    for (const auto& m : result.metrics) {
      std::size_t p = position(m.info->tag);
      if (p >= from && p < to) j[std::string(m.info->tag)] = metric_object(m);
    }
  };
  emit_range(0, first_other);
  if (!ctx.telemetry_data.is_null()) j["telemetry_data"] = ctx.telemetry_data;
  j["input_config"] = ctx.input_config;
  if (!ctx.run_info.is_null()) j["run_info"] = ctx.run_info;
  j["was_cancelled"] = ctx.was_cancelled;
  auto errors = nlohmann::ordered_json::array();
  for (const auto& e : result.errors) {
    nlohmann::ordered_json details;
    details["code"] = e.code ? nlohmann::ordered_json(*e.code) : nlohmann::ordered_json(nullptr);
    details["type"] = e.type;
    details["message"] = e.message;
    errors.push_back({{"error_details", details}, {"count", e.count}});
  }
  j["error_summary"] = std::move(errors);
  if (ctx.phase_start_ns) j["start_time"] = local_iso8601(ctx.anchor.to_wall(ctx.phase_start_ns));
  if (ctx.phase_end_ns) j["end_time"] = local_iso8601(ctx.anchor.to_wall(ctx.phase_end_ns));
  emit_range(first_other, first_extra);
  j["inferperf_version"] = kVersion;
  emit_range(first_extra, metrics::catalogue().size());
  if (!ctx.token_source.empty()) j["token_source"] = ctx.token_source;
  // Open-loop arrivals that found every --concurrency slot taken (rate modes only).
  if (ctx.dropped_arrivals) j["dropped_arrival_count"] = *ctx.dropped_arrivals;
  if (ctx.workload) {
    if (auto check = workload_check_json(result, *ctx.workload); !check.is_null())
      j["workload_check"] = std::move(check);
  }
  if (!ctx.workload_integrity.is_null()) j["workload_integrity"] = ctx.workload_integrity;
  if (!ctx.server_behaviour.is_null()) j["server_behaviour"] = ctx.server_behaviour;
  // After every AIPerf key: readers that know only AIPerf's schema never meet it first.
  if (!ctx.client_health.is_null()) j["client_health"] = ctx.client_health;
  return j;
}

}  // namespace inferperf::report
