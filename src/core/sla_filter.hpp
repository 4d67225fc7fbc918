// Service-level filters (AIPerf 0.11's SLA grammar, `metric_tag:stat:op:threshold`): parsed once
// here for every user (--search-sla, --adaptive-scale-sla); what a filter is checked against is
// the user's business (a sweep point's runs, an adaptive-scale window).
#pragma once
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace inferperf::core {

struct SlaFilter {
  std::string tag;       // "time_to_first_token"
  std::string stat;      // avg, min, max, p1, p5, p10, p25, p50, p75, p90, p95, p99
  std::string op;        // lt, le, gt, ge
  double threshold = 0;  // in the metric's export unit (ms for latencies)
  std::string text;      // as typed, for messages and the files that record it
};

// A metric tag as the exports write it: lower-case letters, digits and '_', not empty.
bool is_metric_tag(std::string_view s);

// "time_to_first_token:p99:lt:500"; the error names the part that is wrong.
Result<SlaFilter> parse_sla_filter(std::string_view text);

// Whether `value` meets the filter (a non-finite value never does).
bool sla_holds(const SlaFilter& f, double value);

// "<", "<=", ">", ">=".
const char* sla_op_symbol(const std::string& op);

}  // namespace inferperf::core
