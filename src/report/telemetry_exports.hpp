// GPU telemetry and server metrics exports: telemetry_data in the summary JSON (and the CSV
// section and console table rendered from it), gpu_telemetry_export.jsonl, and the
// server_metrics_export.{json,csv,jsonl} files.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "telemetry/dcgm.hpp"
#include "telemetry/endpoint_state.hpp"
#include "telemetry/gpu_sample.hpp"
#include "telemetry/scrape_log.hpp"
#include "telemetry/window_stats.hpp"

namespace inferperf::report {

struct GpuTelemetryInput {
  const std::vector<telemetry::GpuSample>* samples = nullptr;
  std::vector<std::string> endpoints_configured;  // URLs, or "nvml"
  std::vector<std::string> endpoints_successful;
  std::vector<telemetry::CustomGpuField> custom_fields;
  telemetry::Window window;  // the profiling phase
  core::WallAnchor anchor;
};

// AIPerf's telemetry_data object; null when no GPU sample fell in the window.
nlohmann::ordered_json telemetry_data_json(const GpuTelemetryInput& in);
// The CSV section appended to profile_export_aiperf.csv (starting with its two empty rows); empty
// when telemetry_data is null.
std::string gpu_telemetry_csv(const nlohmann::ordered_json& telemetry_data);
// "inferperf | GPU Telemetry Summary": reachable endpoints and one table per GPU.
std::string render_gpu_telemetry(const nlohmann::ordered_json& telemetry_data);
// total_gpu_power (W) and total_gpu_energy (J) from a telemetry_data object (as
// telemetry::gpu_totals() computes them from the samples): the sum over its GPUs of
// gpu_power_usage.avg, and of energy_consumption.avg (the window's change, MJ) × 1e6. Reads only
// the JSON, so `analyze` (which has telemetry_data from the run manifest, not the samples) gets
// the same numbers. Both nullopt when telemetry_data is null.
telemetry::GpuTotals gpu_totals_from_telemetry_data(const nlohmann::ordered_json& telemetry_data);
// gpu_telemetry_export.jsonl: one line per GPU per scrape, the whole run.
void write_gpu_telemetry_jsonl(const std::vector<telemetry::GpuSample>& samples,
                               const core::WallAnchor& anchor, std::ostream& out);

struct ServerMetricsInput {
  const std::vector<telemetry::ScrapeLog>* logs = nullptr;
  const std::vector<telemetry::EndpointState>* endpoints = nullptr;  // configured, with reach
  telemetry::Window window;
  core::WallAnchor anchor;
  std::string benchmark_id;
  nlohmann::ordered_json input_config;
  // --slice-duration: each series gets `timeslices` over the window cut into slices this long.
  std::optional<double> slice_duration_s;
};

nlohmann::ordered_json server_metrics_json(const ServerMetricsInput& in);
std::string server_metrics_csv(const nlohmann::ordered_json& server_metrics);
// One line per scrape whose values differ from the previous scrape of the same endpoint.
void write_server_metrics_jsonl(const ServerMetricsInput& in, std::ostream& out);

}  // namespace inferperf::report
