// The notes printed after the tables: the HTTP phase table, the server timings table, warning
// panels about token counts, and advice for server errors whose cause is known.
#pragma once
#include <string>
#include <vector>

#include "metrics/compute.hpp"
#include "report/report_context.hpp"

namespace inferperf::report {

// A plain box around a few lines, so a warning stands out in a log as well as on a terminal.
std::string panel(const std::string& title, const std::vector<std::string>& lines);

// The http_req_* metrics as a table (--show-trace-timing); empty when there are none.
std::string render_trace_table(const metrics::BenchmarkResult& result);

// The metrics joined with the server's own timings (server_*, client_overhead_time) as a table;
// empty when no record carried server timings.
std::string render_server_timings_table(const metrics::BenchmarkResult& result);

// "Output Sequence Length Mismatch Warning" (saying which way the lengths differ and why, never
// advising an --extra-inputs key the run sent, read from ctx.input_config) and "Token Count
// Discrepancy Warning" (after the server's constant prompt offset, which is printed as a note)
// panels; a note alone when the records' differences are explained; empty otherwise
// (report/token_warnings.cpp).
std::string render_token_warnings(const metrics::BenchmarkResult& result,
                                  const metrics::MetricOptions& options, const ReportContext& ctx);

// Advice for errors whose server message says what is wrong (e.g. a rejected
// max_completion_tokens field); empty when none is recognised.
std::string render_error_advice(const metrics::BenchmarkResult& result);

}  // namespace inferperf::report
