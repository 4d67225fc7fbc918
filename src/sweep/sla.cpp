#include "sweep/sla.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "report/format.hpp"
#include "sweep/summary.hpp"

namespace inferperf::sweep {

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

core::Error sla_error(std::string_view text, const std::string& why) {
  return core::Error{core::ErrorKind::kConfig,
                     fmt::format("SLA filter '{}': {} (the form is metric_tag:stat:op:threshold, "
                                 "e.g. time_to_first_token:p99:lt:500)",
                                 core::excerpt(text), why)};
}

const char* op_symbol(const std::string& op) {
  if (op == "lt") return "<";
  if (op == "le") return "<=";
  if (op == "gt") return ">";
  return ">=";
}

}  // namespace

bool is_metric_tag(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

core::Result<SlaFilter> parse_sla_filter(std::string_view text) {
  const auto parts = split_colons(text);
  if (parts.size() != 4) return sla_error(text, fmt::format("{} parts, 4 expected", parts.size()));
  SlaFilter f;
  f.text = std::string(text);
  if (!is_metric_tag(parts[0]))
    return sla_error(text, "the metric tag must be lower-case letters, digits and _");
  f.tag = std::string(parts[0]);
  if (std::find(kStats.begin(), kStats.end(), parts[1]) == kStats.end())
    return sla_error(text, fmt::format("stat '{}' is not one of avg, min, max, p1, p5, p10, p25, "
                                       "p50, p75, p90, p95, p99",
                                       core::excerpt(parts[1])));
  f.stat = std::string(parts[1]);
  if (std::find(kOps.begin(), kOps.end(), parts[2]) == kOps.end())
    return sla_error(text,
                     fmt::format("operator '{}' is not lt, le, gt or ge", core::excerpt(parts[2])));
  f.op = std::string(parts[2]);
  const auto* end = parts[3].data() + parts[3].size();
  auto [p, ec] = std::from_chars(parts[3].data(), end, f.threshold);
  if (parts[3].empty() || ec != std::errc() || p != end || !std::isfinite(f.threshold))
    return sla_error(text, fmt::format("threshold '{}' is not a number", core::excerpt(parts[3])));
  return f;
}

bool sla_holds(const SlaFilter& f, double value) {
  if (!std::isfinite(value)) return false;
  if (f.op == "lt") return value < f.threshold;
  if (f.op == "le") return value <= f.threshold;
  if (f.op == "gt") return value > f.threshold;
  return value >= f.threshold;
}

std::string describe_sla_value(const SlaFilter& f, std::optional<double> value) {
  return fmt::format("{} {} {} (needs {} {})", f.tag, f.stat,
                     value ? report::with_thousands(*value) : std::string("missing"),
                     op_symbol(f.op), report::with_thousands(f.threshold));
}

std::vector<SlaCheck> check_sla(const std::vector<SlaFilter>& filters, const PointResult& point) {
  std::vector<SlaCheck> out;
  for (const auto& f : filters) {
    SlaCheck c;
    c.filter = &f;
    const auto v = point_metric(point, f.tag, f.stat);
    if (v.is_number()) c.value = v.get<double>();
    c.holds = c.value && sla_holds(f, *c.value);
    out.push_back(c);
  }
  return out;
}

bool all_hold(const std::vector<SlaCheck>& checks) {
  return std::all_of(checks.begin(), checks.end(), [](const SlaCheck& c) { return c.holds; });
}

}  // namespace inferperf::sweep
