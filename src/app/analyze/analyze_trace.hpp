// `inferperf analyze-trace INPUT_FILE`: reads a Mooncake-style JSONL trace, prints the "Trace
// Analysis Report" and, with --output-file, writes the statistics as JSON (trace-formats.md §9,
// plus p90, tokens per hash_id and block reuse).
#pragma once
#include <string>

#include "config/cli.hpp"
#include "dataset/trace_analysis.hpp"

namespace inferperf::app {

// Exit codes: 0, 1 (the JSON file could not be written), 2 (unreadable or invalid trace).
int run_analyze_trace(const config::AnalyzeTraceArgs& args);

// The console report of an analysis.
std::string render_trace_report(const dataset::TraceAnalysis& a);

}  // namespace inferperf::app
