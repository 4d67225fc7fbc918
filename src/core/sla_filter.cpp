#include "core/sla_filter.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <vector>

namespace inferperf::core {

namespace {

constexpr std::array<std::string_view, 12> kStats = {"avg", "min", "max", "p1",  "p5",  "p10",
                                                     "p25", "p50", "p75", "p90", "p95", "p99"};
constexpr std::array<std::string_view, 4> kOps = {"lt", "le", "gt", "ge"};

std::vector<std::string_view> split_colons(std::string_view s) {
  std::vector<std::string_view> out;
  while (true) {
    const auto colon = s.find(':');
    out.push_back(s.substr(0, colon));
    if (colon == std::string_view::npos) break;
    s.remove_prefix(colon + 1);
  }
  return out;
}

Error sla_error(std::string_view text, const std::string& why) {
  return Error{ErrorKind::kConfig, "SLA filter '" + excerpt(text) + "': " + why +
                                       " (the form is metric_tag:stat:op:threshold, e.g. "
                                       "time_to_first_token:p99:lt:500)"};
}

}  // namespace

bool is_metric_tag(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

Result<SlaFilter> parse_sla_filter(std::string_view text) {
  const auto parts = split_colons(text);
  if (parts.size() != 4)
    return sla_error(text, std::to_string(parts.size()) + " parts, 4 expected");
  SlaFilter f;
  f.text = std::string(text);
  if (!is_metric_tag(parts[0]))
    return sla_error(text, "the metric tag must be lower-case letters, digits and _");
  f.tag = std::string(parts[0]);
  if (std::find(kStats.begin(), kStats.end(), parts[1]) == kStats.end())
    return sla_error(text, "stat '" + excerpt(parts[1]) +
                               "' is not one of avg, min, max, p1, p5, p10, p25, p50, p75, "
                               "p90, p95, p99");
  f.stat = std::string(parts[1]);
  if (std::find(kOps.begin(), kOps.end(), parts[2]) == kOps.end())
    return sla_error(text, "operator '" + excerpt(parts[2]) + "' is not lt, le, gt or ge");
  f.op = std::string(parts[2]);
  const auto* end = parts[3].data() + parts[3].size();
  auto [p, ec] = std::from_chars(parts[3].data(), end, f.threshold);
  if (parts[3].empty() || ec != std::errc() || p != end || !std::isfinite(f.threshold))
    return sla_error(text, "threshold '" + excerpt(parts[3]) + "' is not a number");
  return f;
}

bool sla_holds(const SlaFilter& f, double value) {
  if (!std::isfinite(value)) return false;
  if (f.op == "lt") return value < f.threshold;
  if (f.op == "le") return value <= f.threshold;
  if (f.op == "gt") return value > f.threshold;
  return value >= f.threshold;
}

const char* sla_op_symbol(const std::string& op) {
  if (op == "lt") return "<";
  if (op == "le") return "<=";
  if (op == "gt") return ">";
  return ">=";
}

}  // namespace inferperf::core
