// File exporters: summary JSON and CSV, timeslices, per-record and raw JSONL, all
// AIPerf-compatible.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
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
// One record's profile_export.jsonl line into `text` (newline-terminated); false when the record
// has no line (no metric and no error). `good` is goodput_metric(): with --goodput, valid records
// say whether they met every objective.
bool records_jsonl_line(const metrics::RecordValues& rv, const metrics::MetricInfo* good,
                        const ReportContext& ctx, std::string& text);
// good_request_count's catalogue entry when the run had --goodput objectives, else nullptr.
const metrics::MetricInfo* goodput_metric(bool goodput);
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
// A file written through `<path>.tmp` and renamed onto `path` by commit(), so a long export can be
// streamed line by line while readers never see a half file. Without a commit (or when commit
// fails) the temporary file is removed and an earlier `path` stays as it was.
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  bool is_open() const { return opened_; }
  // The stream, after what append() holds (so the two can be mixed in order).
  std::ostream& stream();
  // Appends `text`, gathered and written 64 KiB at a time: std::ofstream writes anything of 1 KiB
  // or more straight through, so a file of kilobyte lines cost a system call per line.
  void append(std::string_view text);
  // Flushes, checks every write and renames; once only.
  core::Result<bool> commit();

 private:
  void write_pending();

  std::filesystem::path path_, tmp_;
  std::ofstream out_;
  std::string pending_;
  bool opened_ = false, done_ = false;
};

// The same with the content produced by `writer` (large files are streamed, not built in memory).
core::Result<bool> write_atomically(const std::filesystem::path& path,
                                    const std::function<void(std::ostream&)>& writer);

}  // namespace inferperf::report
