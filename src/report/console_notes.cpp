#include "report/console_notes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "report/console_table.hpp"

namespace inferperf::report {

// A plain box around a few lines, so the warning stands out in a log as well as on a terminal.
std::string panel(const std::string& title, const std::vector<std::string>& lines) {
  std::size_t w = title.size() + 4;
  for (const auto& l : lines) w = std::max(w, l.size() + 4);
  std::string out = "+- " + title + " " + std::string(w - title.size() - 3, '-') + "+\n";
  for (const auto& l : lines) out += "| " + l + std::string(w - l.size() - 2, ' ') + "|\n";
  out += "+" + std::string(w, '-') + "+\n";
  return out;
}

namespace {

bool contains(const std::string& s, const char* needle) {
  return s.find(needle) != std::string::npos;
}

}  // namespace

std::string render_trace_table(const metrics::BenchmarkResult& result) {
  return render_metrics_table(result, "HTTP Trace Timing", metrics::Visibility::kTrace);
}

std::string render_server_timings_table(const metrics::BenchmarkResult& result) {
  return render_metrics_table(result, "Server Timings", metrics::Visibility::kServerTimings);
}

std::string render_error_advice(const metrics::BenchmarkResult& result) {
  std::string out;
  bool max_tokens = false, stream_options = false, model = false;
  for (const auto& e : result.errors) {
    const std::string& m = e.message;
    if (contains(m, "max_completion_tokens") &&
        (contains(m, "extra_forbidden") || contains(m, "not permitted") ||
         contains(m, "nrecognized") || contains(m, "nsupported") || contains(m, "nknown")))
      max_tokens = true;
    if (contains(m, "stream_options") &&
        (contains(m, "extra_forbidden") || contains(m, "not permitted") ||
         contains(m, "nrecognized") || contains(m, "nsupported")))
      stream_options = true;
    if (e.code == 404 && contains(m, "model") &&
        (contains(m, "does not exist") || contains(m, "not found")))
      model = true;
  }
  if (max_tokens) {
    out += panel("Unsupported Parameter: max_completion_tokens",
                 {"The server rejected the max_completion_tokens field of chat requests.",
                  "Rerun with --use-legacy-max-tokens to send max_tokens instead."});
  }
  if (stream_options) {
    out += panel("Unsupported Parameter: stream_options",
                 {"The server rejected stream_options (sent to get usage in streams).",
                  "Rerun without --use-server-token-count, or override it with",
                  "--extra-inputs to match what the server accepts."});
  }
  if (model) {
    out += panel("Unknown Model", {"The server does not serve the model named with -m/--model.",
                                   "List what it serves with: curl <url>/v1/models"});
  }
  return out;
}

}  // namespace inferperf::report
