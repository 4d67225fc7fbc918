// profile_export_aiperf_timeslices.csv / .json (docs/metrics.md, Timeslices).
#include "core/statistics.hpp"
#include "report/export_parts.hpp"
#include "report/exporters.hpp"

namespace inferperf::report {

std::string timeslices_csv(const std::vector<metrics::Timeslice>& slices) {
  std::string out = "Timeslice,Metric,Unit,Stat,Value\r\n";
  for (const auto& slice : slices) {
    const std::string index = std::to_string(slice.index);
    for (const auto* m : csv_order(slice.result, true, true)) {
      const std::string prefix =
          index + "," + csv_field(m->info->header) + "," + csv_field(m->info->unit) + ",";
      auto row = [&](std::string_view stat, const std::string& value) {
        out += prefix;
        out += stat;
        out += "," + value + "\r\n";
      };
      if (m->scalar) {
        row("avg", csv_number(m->value, m->info->integral));
        continue;
      }
      const auto& s = m->stats;
      row("avg", csv_number(s.avg, false));
      row("min", csv_number(s.min, false));
      row("max", csv_number(s.max, false));
      row("sum", csv_number(s.sum, false));
      for (std::size_t i = 0; i < core::kPercentiles.size(); ++i) {
        row("p" + std::to_string(static_cast<int>(core::kPercentiles[i])),
            csv_number(s.p[i], false));
      }
      row("std", csv_number(s.std, false));
    }
  }
  return out;
}

nlohmann::ordered_json timeslices_json(const std::vector<metrics::Timeslice>& slices,
                                       const ReportContext& ctx) {
  auto list = nlohmann::ordered_json::array();
  for (const auto& slice : slices) {
    nlohmann::ordered_json s;
    s["timeslice_index"] = slice.index;
    // Catalogue order, as in profile_export_aiperf.json.
    for (const auto& m : slice.result.metrics) s[std::string(m.info->tag)] = metric_object(m);
    list.push_back(std::move(s));
  }
  nlohmann::ordered_json j;
  j["timeslices"] = std::move(list);
  j["input_config"] = ctx.input_config;
  return j;
}

}  // namespace inferperf::report
