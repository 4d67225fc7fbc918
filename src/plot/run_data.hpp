// What the charts read from one run folder. Only profile_export_aiperf.json is required; every
// other file is optional and its absence only skips the charts that need it.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::plot {

// Times are seconds since the run's first request start (RunData::zero_ns); values are NaN
// where the record lacks them.
struct RequestRow {
  double start_s = 0;
  double first_token_s = 0;
  double end_s = 0;
  double ttft_ms = 0;
  double itl_ms = 0;
  double latency_ms = 0;
  double isl = 0;
  double osl = 0;
  bool error = false;
};

// One profiling-phase request of inferperf_records.jsonl: when the schedule wanted it sent and
// when it started, in seconds since the first intended send.
struct DispatchRow {
  double intended_s = 0;
  double start_s = 0;
  double lag_ms() const { return (start_s - intended_s) * 1e3; }
};

struct TimesliceRow {
  int index = 0;
  std::map<std::string, double> avg;  // metric tag -> avg
};

struct TimeSeries {
  std::string name;  // "GPU 0 (H100)", "vllm:num_requests_running"
  std::vector<double> t_s;
  std::vector<double> value;
};

// The configuration a run is a point of, from input_config (or the folder name).
struct RunParams {
  std::optional<double> concurrency;
  std::optional<double> request_rate;
  std::optional<double> isl;
  std::optional<double> osl;
  std::string model;
};

struct RunData {
  std::filesystem::path dir;
  nlohmann::json summary;  // profile_export_aiperf.json
  RunParams params;
  int gpu_count = 0;         // GPUs in telemetry_data; 0 when there was no GPU telemetry
  std::int64_t zero_ns = 0;  // wall-clock ns of t = 0
  std::optional<std::vector<RequestRow>> requests;   // profile_export.jsonl
  std::optional<std::vector<DispatchRow>> dispatch;  // inferperf_records.jsonl
  std::optional<std::vector<TimesliceRow>> timeslices;
  std::map<std::string, std::vector<TimeSeries>> gpu;  // telemetry tag -> one series per GPU
  std::vector<TimeSeries> server;  // gauges of server_metrics_export.jsonl, one per family+URL
  std::vector<std::string> notes;  // optional files missing, for --verbose

  // A statistic of the summary ("avg", "p99", ...); nullopt when absent.
  std::optional<double> stat(std::string_view tag, std::string_view name = "avg") const;
};

RunParams params_from_input_config(const nlohmann::json& input_config);
// "concurrency_8", "request_rate_2.5", "isl_128", "osl_64", parts joined by '-', and the
// reference workflow's "c8"; fields it does not name stay unset.
RunParams params_from_folder_name(const std::string& name);

// Throws PlotError (exit 2) naming the file, line and field that cannot be read.
RunData load_run(const std::filesystem::path& dir);

}  // namespace inferperf::plot
