// Service-level filters (AIPerf 0.11's SLA grammar, `metric_tag:stat:op:threshold`): parsed from
// --search-sla, and checked against a point's runs, where the value of a filter is the mean over
// the point's successful runs of that metric's statistic in profile_export_aiperf.json.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace inferperf::sweep {

struct PointResult;

struct SlaFilter {
  std::string tag;       // "time_to_first_token"
  std::string stat;      // avg, min, max, p1, p5, p10, p25, p50, p75, p90, p95, p99
  std::string op;        // lt, le, gt, ge
  double threshold = 0;  // in the metric's export unit (ms for latencies)
  std::string text;      // as typed, for messages and search_history.json
};

// A metric tag as the exports write it: lower-case letters, digits and '_', not empty.
bool is_metric_tag(std::string_view s);

// "time_to_first_token:p99:lt:500"; the error names the part that is wrong.
core::Result<SlaFilter> parse_sla_filter(std::string_view text);

// Whether `value` meets the filter.
bool sla_holds(const SlaFilter& f, double value);

// "time_to_first_token p99 612.4 (needs < 500)": for consoles and logs.
std::string describe_sla_value(const SlaFilter& f, std::optional<double> value);

struct SlaCheck {
  const SlaFilter* filter = nullptr;
  std::optional<double> value;  // nullopt: no successful run reported the metric
  bool holds = false;           // a missing value never holds
};

// One check per filter, in the filters' order.
std::vector<SlaCheck> check_sla(const std::vector<SlaFilter>& filters, const PointResult& point);

// Every check holds (true for no filters).
bool all_hold(const std::vector<SlaCheck>& checks);

}  // namespace inferperf::sweep
