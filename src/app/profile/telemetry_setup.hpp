// GPU telemetry and server metrics for a run: the collector built from the configuration, and the
// export files written from what it collected.
#pragma once
#include <memory>

#include "artifacts/export_names.hpp"
#include "config/run_config.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "report/report_context.hpp"
#include "telemetry/collector.hpp"
#include "transport/url.hpp"

namespace inferperf::app {

struct RunTelemetry {
  std::unique_ptr<telemetry::TelemetryCollector> collector;
  std::vector<telemetry::CustomGpuField> custom_fields;
  std::vector<std::string> gpu_configured;  // for telemetry_data.summary
  double flush_s = 2.0;                     // AIPERF_SERVER_METRICS_COLLECTION_FLUSH_PERIOD
  double interval_s = 0.333;
  bool nvml = false;
  std::shared_ptr<void> nvml_source;  // keeps the NVML library loaded while the sampler runs
};

// Errors (exit 2): an unreadable or malformed custom metrics CSV. A missing NVML library is a
// warning: the benchmark runs without GPU telemetry.
core::Result<RunTelemetry> setup_telemetry(const config::RunConfig& c,
                                           const std::vector<transport::BaseUrl>& urls,
                                           const core::Clock& clock);

// After the profiling phase: waits the flush period while server metrics are collected, takes
// the final scrape and stops the collector.
void finish_telemetry(RunTelemetry& t, const std::atomic<bool>& cancelled);

// telemetry_data (and whether the console shows it) into ctx.
void summarise_gpu_telemetry(const RunTelemetry& t, const config::RunConfig& c,
                             report::ReportContext& ctx);

// gpu_telemetry_export.jsonl and server_metrics_export.*; false when a file could not be written.
bool write_telemetry_exports(const RunTelemetry& t, const config::RunConfig& c,
                             const report::ReportContext& ctx, const artifacts::ExportNames& names);

}  // namespace inferperf::app
