// File exporters: summary JSON and CSV, timeslices, per-record and raw JSONL, all
// AIPerf-compatible.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "metrics/compute.hpp"
#include "metrics/timeslice.hpp"
#include "records/request_record.hpp"
#include "report/report_context.hpp"

namespace inferperf::report {

nlohmann::ordered_json summary_json(const metrics::BenchmarkResult& result,
                                    const ReportContext& ctx);
std::string summary_csv(const metrics::BenchmarkResult& result);
// One line per profiling record (AIPerf profile_export.jsonl), newline-terminated.
std::string records_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx);
// The same streamed to `out` (a long run's export is not built in memory).
void write_records_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx,
                         std::ostream& out);
// The "metadata" object of a profile_export.jsonl line; profile_export_raw.jsonl uses the same.
nlohmann::ordered_json record_metadata(const records::RequestRecord& r, const ReportContext& ctx);
// The "error" object of a failed record: {code (null when none), type, message}.
nlohmann::ordered_json error_json(const records::ErrorInfo& e);

// One profile_export_raw.jsonl line (AIPerf export-level raw), without the newline; the record must
// carry its raw exchange.
std::string raw_jsonl_line(const records::RequestRecord& r, const ReportContext& ctx);
// profile_export_raw.jsonl: one line per profiling record that carries a raw exchange, in the order
// of profile_export.jsonl, streamed to `out`.
void write_raw_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx,
                     std::ostream& out);

// --slice-duration: profile_export_aiperf_timeslices.csv (tidy rows, CRLF) and .json.
std::string timeslices_csv(const std::vector<metrics::Timeslice>& slices);
nlohmann::ordered_json timeslices_json(const std::vector<metrics::Timeslice>& slices,
                                       const ReportContext& ctx);

// Writes `content` to `path` through a temporary file and a rename, so readers never see a half
// file; on failure the temporary file is removed and an earlier `path` is left as it was.
core::Result<bool> write_atomically(const std::filesystem::path& path, const std::string& content);
// The same with the content produced by `writer` (large files are streamed, not built in memory).
core::Result<bool> write_atomically(const std::filesystem::path& path,
                                    const std::function<void(std::ostream&)>& writer);

}  // namespace inferperf::report
