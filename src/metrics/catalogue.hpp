// The metric catalogue: tags, headers, display units, flags and display order (AIPerf v0.6).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::metrics {

enum class MetricKind { kRecord, kAggregate, kDerived };

struct MetricInfo {
  std::string_view tag;
  std::string_view header;
  std::string_view unit;  // display unit
  double scale = 1.0;     // base value / scale = display value (ns -> ms: 1e6)
  MetricKind kind = MetricKind::kRecord;
  int order = 0;          // console display order; 0 = never on the console
  bool integral = false;  // scalar printed as an integer
};

// Every metric inferperf can export, in JSON key order.
const std::vector<MetricInfo>& catalogue();
const MetricInfo* find_metric(std::string_view tag);

}  // namespace inferperf::metrics
