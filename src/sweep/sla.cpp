#include "sweep/sla.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/format.hpp"
#include "sweep/summary.hpp"

namespace inferperf::sweep {

std::string describe_sla_value(const SlaFilter& f, std::optional<double> value) {
  return fmt::format("{} {} {} (needs {} {})", f.tag, f.stat,
                     value ? report::with_thousands(*value) : std::string("missing"),
                     core::sla_op_symbol(f.op), report::with_thousands(f.threshold));
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
