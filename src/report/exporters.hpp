// File exporters: summary JSON and CSV, timeslices, per-record JSONL and inputs.json, all
// AIPerf-compatible.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "metrics/compute.hpp"
#include "metrics/timeslice.hpp"
#include "report/report_context.hpp"

namespace inferperf::report {

nlohmann::ordered_json summary_json(const metrics::BenchmarkResult& result,
                                    const ReportContext& ctx);
std::string summary_csv(const metrics::BenchmarkResult& result);
// One line per profiling record (AIPerf profile_export.jsonl), newline-terminated.
std::string records_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx);

// --slice-duration: profile_export_aiperf_timeslices.csv (tidy rows, CRLF) and .json.
std::string timeslices_csv(const std::vector<metrics::Timeslice>& slices);
nlohmann::ordered_json timeslices_json(const std::vector<metrics::Timeslice>& slices,
                                       const ReportContext& ctx);

// Writes `content` to `path` through a temporary file and a rename, so readers never see a half
// file.
core::Result<bool> write_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace inferperf::report
