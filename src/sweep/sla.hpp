// Service-level filters (AIPerf 0.11's SLA grammar, `metric_tag:stat:op:threshold`): parsed from
// --search-sla, and checked against a point's runs, where the value of a filter is the mean over
// the point's successful runs of that metric's statistic in profile_export_aiperf.json.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/sla_filter.hpp"

namespace inferperf::sweep {

struct PointResult;

using core::is_metric_tag;
using core::parse_sla_filter;
using core::sla_holds;
using core::SlaFilter;

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
