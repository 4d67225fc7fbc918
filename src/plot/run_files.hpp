// Readers of a run folder's optional files, filling one part of RunData each. A missing file
// leaves its part empty and adds a note; a malformed one throws PlotError naming file and line.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>

#include "plot/run_data.hpp"

namespace inferperf::plot {

// Calls `fn` for each non-empty line of a JSONL file with its 1-based line number; returns
// false when the file does not exist.
bool for_each_json_line(const std::filesystem::path& path,
                        const std::function<void(const nlohmann::json&, int)>& fn);

void load_requests(RunData& run);        // profile_export.jsonl; sets zero_ns
void load_dispatch(RunData& run);        // inferperf_records.jsonl
void load_timeslices(RunData& run);      // profile_export_aiperf_timeslices.json or .csv
void load_gpu_telemetry(RunData& run);   // gpu_telemetry_export.jsonl
void load_server_metrics(RunData& run);  // server_metrics_export.jsonl

}  // namespace inferperf::plot
