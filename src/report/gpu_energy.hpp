// AIPerf 0.11's GPU power and energy metrics (#803), derived after the analysis from the run's GPU
// telemetry: total_gpu_power, total_gpu_energy, output_tokens_per_joule, energy_per_user.
#pragma once
#include "metrics/compute.hpp"
#include "report/report_context.hpp"

namespace inferperf::report {

// Adds the metrics whose inputs exist: power and energy from ctx.telemetry_data (nothing without
// GPU telemetry), tokens per joule with total_output_tokens and energy > 0, energy per user with
// the profiling phase's concurrency (input_config) and energy. Keeps result.metrics in catalogue
// order.
void add_gpu_energy_metrics(metrics::BenchmarkResult& result, const ReportContext& ctx);

}  // namespace inferperf::report
