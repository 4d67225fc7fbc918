#include "app/analyze/analyze_trace.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "app/exit_codes.hpp"
#include "dataset/input_file.hpp"
#include "report/console_table.hpp"
#include "report/exporters.hpp"
#include "report/format.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

// 3541 -> "3,541".
std::string count(std::int64_t n) {
  std::string s = report::with_thousands(static_cast<double>(n));
  return s.substr(0, s.size() - 3);
}

std::vector<std::string> stats_row(const std::string& label,
                                   const std::optional<dataset::TraceStats>& s) {
  if (!s) return {label, "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A"};
  using report::with_thousands;
  return {label,
          with_thousands(s->mean),
          with_thousands(s->std_dev),
          with_thousands(s->min),
          with_thousands(s->p25),
          with_thousands(s->median),
          with_thousands(s->p75),
          with_thousands(s->p90),
          with_thousands(s->max)};
}

core::Result<std::vector<dataset::TraceRow>> read_trace(const std::string& file) {
  auto content = dataset::read_input_file(file, "mooncake_trace");
  if (!content) return content.error();
  std::vector<dataset::TraceRow> rows;
  auto err = dataset::for_each_json_line(
      *content, file, [&](int line_no, nlohmann::ordered_json& line) -> std::optional<core::Error> {
        auto row = dataset::trace_row_from_json(line, file, line_no);
        if (!row) return row.error();
        rows.push_back(std::move(*row));
        return std::nullopt;
      });
  if (err) return *err;
  return rows;
}

}  // namespace

std::string render_trace_report(const dataset::TraceAnalysis& a) {
  std::string out = "Trace Analysis Report\n";
  out += fmt::format("Total requests: {}\n", count(a.total_requests));
  out += fmt::format("Unique prefixes: {}\n", count(a.unique_prefixes));
  out += fmt::format("Prefix groups: {}\n\n", count(a.num_prefix_groups));
  const std::vector<std::vector<std::string>> rows = {
      stats_row("Input Length", a.isl_stats),
      stats_row("Context Length", a.context_length_stats),
      stats_row("Unique Prompt Length", a.unique_prompt_length_stats),
      stats_row("Output Length", a.osl_stats),
      stats_row("Theoretical Hit Rates", a.hit_rate_stats),
  };
  out += report::render_table(
      "Trace Statistics",
      {"Metric", "Mean", "Std Dev", "Min", "P25", "Median", "P75", "P90", "Max"}, rows, 1);
  out += "\n";
  out += fmt::format("Tokens per hash_id: {}\n",
                     a.tokens_per_hash_id ? report::with_thousands(*a.tokens_per_hash_id) : "N/A");
  if (a.block_reuse_ratio) {
    out += fmt::format("Block reuse: {:.2f}% of referenced blocks are shared across requests\n",
                       *a.block_reuse_ratio * 100.0);
  } else {
    out += "Block reuse: N/A (no hash_ids)\n";
  }
  return out;
}

int run_analyze_trace(const config::AnalyzeTraceArgs& args) {
  auto rows = read_trace(args.input_file);
  if (!rows) {
    std::cerr << "error: " << rows.error().describe() << "\n";
    return kExitBadConfig;
  }
  const dataset::TraceAnalysis analysis = dataset::analyze_trace(*rows, args.block_size);
  std::cout << render_trace_report(analysis);
  if (args.output_file.empty()) return kExitOk;

  const fs::path out = args.output_file;
  std::error_code ec;
  if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
  if (ec) {
    std::cerr << "error: " << out.parent_path().string() << ": cannot create the folder ("
              << ec.message() << ")\n";
    return kExitRunFailed;
  }
  auto written =
      report::write_atomically(out, dataset::trace_analysis_json(analysis).dump(2) + "\n");
  if (!written) {
    std::cerr << "error: " << written.error().describe() << "\n";
    return kExitRunFailed;
  }
  std::cout << "Analysis written to " << out.string() << "\n";
  return kExitOk;
}

}  // namespace inferperf::app
