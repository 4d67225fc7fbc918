// The metric catalogue: tags, headers (AIPerf 0.11 display names), display units, flags and
// display order.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::metrics {

enum class MetricKind { kRecord, kAggregate, kDerived };

// Who gets to see a metric besides the JSON/CSV summaries.
enum class Visibility {
  kNormal,
  kTrace,         // HTTP phase metrics: exported; on the console only with --show-trace-timing
  kCrossTool,     // other tools' definitions: computed only with --cross-tool-metrics
  kExperimental,  // AIPerf's X flag: exported only with AIPERF_DEV_MODE
  // Joined with the server's own per-request timings (llama.cpp `timings`): present only when some
  // record carried them; on the console as a separate "Server Timings" table.
  kServerTimings,
};

// AIPerf 0.11's `console_group`: the console prints one table per non-empty group, in this order;
// kNone metrics are exported but not in those tables.
enum class ConsoleGroup { kNone, kDefault, kUsage, kCache, kPrediction, kAudio, kReasoning };

// AIPerf's name of the group ("none", "default", "usage", ...).
std::string_view to_string(ConsoleGroup g);

struct MetricInfo {
  std::string_view tag;
  std::string_view header;
  std::string_view unit;  // display unit
  double scale = 1.0;     // base value / scale = display value (ns -> ms: 1e6)
  MetricKind kind = MetricKind::kRecord;
  // Console order inside the metric's group (smaller first). 0 = no fixed place: such metrics of a
  // printed group follow the ordered ones in catalogue order.
  int order = 0;
  bool integral = false;          // scalar printed as an integer
  bool larger_is_better = false;  // goodput compares value >= threshold
  Visibility visibility = Visibility::kNormal;
  ConsoleGroup console_group = ConsoleGroup::kNone;
};

// Every metric inferperf can export, in JSON key order.
const std::vector<MetricInfo>& catalogue();
const MetricInfo* find_metric(std::string_view tag);

}  // namespace inferperf::metrics
