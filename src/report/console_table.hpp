// The end-of-run console output: metrics table, error summary and footer lines.
#pragma once
#include <string>
#include <vector>

#include "metrics/compute.hpp"
#include "report/report_context.hpp"

namespace inferperf::report {

// AIPerf 0.11's console: one table per non-empty console group (default, usage, cache,
// prediction, audio, reasoning) of the normally visible metrics, titled "<title>" then
// "<title>: Usage", ...
std::string render_metrics_table(const metrics::BenchmarkResult& result, const ReportContext& ctx);
// The metrics of one visibility class with a console order, under "inferperf | <title>".
std::string render_metrics_table(const metrics::BenchmarkResult& result, const std::string& title,
                                 metrics::Visibility visibility);
std::string render_error_table(const metrics::BenchmarkResult& result);
// A boxed table under a centred title; columns from `right_from` on are right-aligned.
std::string render_table(const std::string& title, const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows, std::size_t right_from);

}  // namespace inferperf::report
