#include "report/gpu_energy.hpp"

#include <algorithm>
#include <optional>

#include "report/telemetry_exports.hpp"

namespace inferperf::report {

namespace {

// The profiling phase's concurrency from the input_config echo (AIPerf 0.11's body).
std::optional<double> profiling_concurrency(const nlohmann::ordered_json& ic) {
  const auto phases = ic.find("phases");
  if (phases == ic.end() || !phases->is_array()) return std::nullopt;
  for (const auto& p : *phases) {
    if (!p.is_object() || p.value("name", "") != "profiling") continue;
    const auto c = p.find("concurrency");
    if (c != p.end() && c->is_number() && c->get<double>() > 0) return c->get<double>();
  }
  return std::nullopt;
}

void add_scalar(metrics::BenchmarkResult& result, const char* tag, double value) {
  metrics::MetricResult m;
  m.info = metrics::find_metric(tag);
  m.scalar = true;
  m.value = value;
  result.metrics.push_back(m);
}

std::size_t catalogue_position(const metrics::MetricInfo* info) {
  const auto& all = metrics::catalogue();
  return static_cast<std::size_t>(info - all.data());
}

}  // namespace

void add_gpu_energy_metrics(metrics::BenchmarkResult& result, const ReportContext& ctx) {
  if (ctx.telemetry_data.is_null()) return;
  const telemetry::GpuTotals totals = gpu_totals_from_telemetry_data(ctx.telemetry_data);
  if (totals.total_gpu_power_w) add_scalar(result, "total_gpu_power", *totals.total_gpu_power_w);
  if (const auto& energy = totals.total_gpu_energy_j) {
    add_scalar(result, "total_gpu_energy", *energy);
    const auto* tokens = result.find("total_output_tokens");
    if (tokens && *energy > 0)
      add_scalar(result, "output_tokens_per_joule", tokens->value / *energy);
    if (const auto users = profiling_concurrency(ctx.input_config))
      add_scalar(result, "energy_per_user", *energy / *users);
  }
  std::stable_sort(result.metrics.begin(), result.metrics.end(), [](const auto& a, const auto& b) {
    return catalogue_position(a.info) < catalogue_position(b.info);
  });
}

}  // namespace inferperf::report
