#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/export_parts.hpp"
#include "report/exporters.hpp"

namespace inferperf::report {

namespace {

std::string label(const metrics::MetricInfo& m) {
  std::string l(m.header);
  if (m.unit != "count" && m.unit != "requests") l += fmt::format(" ({})", m.unit);
  return csv_field(l);
}

}  // namespace

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_number(double v, bool integral) {
  if (integral && std::isfinite(v)) return std::to_string(std::llround(v));
  return fmt::format("{:.2f}", v);
}

std::vector<const metrics::MetricResult*> csv_order(const metrics::BenchmarkResult& r, bool records,
                                                    bool scalars) {
  // inferperf's own metrics are the catalogue's tail, from schedule_lag on.
  const auto& all = metrics::catalogue();
  const metrics::MetricInfo* first_own = metrics::find_metric("schedule_lag");
  auto own = [&](const metrics::MetricInfo* mi) { return mi >= first_own && mi < &*all.end(); };
  std::vector<const metrics::MetricResult*> aiperf, extra;
  for (const auto& m : r.metrics) {
    if (!(m.scalar ? scalars : records)) continue;
    (own(m.info) ? extra : aiperf).push_back(&m);
  }
  auto by_tag = [](auto* a, auto* b) { return a->info->tag < b->info->tag; };
  std::sort(aiperf.begin(), aiperf.end(), by_tag);
  std::sort(extra.begin(), extra.end(), by_tag);
  aiperf.insert(aiperf.end(), extra.begin(), extra.end());
  return aiperf;
}

std::string summary_csv(const metrics::BenchmarkResult& result) {
  std::string out;
  auto records = csv_order(result, true, false);
  auto scalars = csv_order(result, false, true);
  if (!records.empty()) {
    out += "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n";
    for (const auto* m : records) {
      const auto& s = m->stats;
      out += label(*m->info);
      for (double v : {s.avg, s.min, s.max, s.sum}) out += "," + csv_number(v, false);
      for (double v : s.p) out += "," + csv_number(v, false);
      out += "," + csv_number(s.std, false) + "\r\n";
    }
  }
  if (!records.empty() && !scalars.empty()) out += "\r\n";
  if (!scalars.empty()) {
    out += "Metric,Value\r\n";
    for (const auto* m : scalars)
      out += label(*m->info) + "," + csv_number(m->value, m->info->integral) + "\r\n";
  }
  return out;
}

}  // namespace inferperf::report
