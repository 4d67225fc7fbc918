#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/exporters.hpp"

namespace inferperf::report {

namespace {

std::string label(const metrics::MetricInfo& m) {
  std::string l(m.header);
  if (m.unit != "count" && m.unit != "requests") l += fmt::format(" ({})", m.unit);
  if (l.find_first_of(",\"\n") != std::string::npos) {
    std::string q = "\"";
    for (char c : l) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  }
  return l;
}

std::string cell(double v, bool integral) {
  if (integral && std::isfinite(v)) return std::to_string(std::llround(v));
  return fmt::format("{:.2f}", v);
}

// AIPerf tags sorted by name, then inferperf's own, so AIPerf rows keep their relative order.
std::vector<const metrics::MetricResult*> ordered(const metrics::BenchmarkResult& r, bool scalar) {
  std::vector<const metrics::MetricResult*> aiperf, extra;
  for (const auto& m : r.metrics) {
    if (m.scalar != scalar) continue;
    (m.info->tag == "schedule_lag" ? extra : aiperf).push_back(&m);
  }
  auto by_tag = [](auto* a, auto* b) { return a->info->tag < b->info->tag; };
  std::sort(aiperf.begin(), aiperf.end(), by_tag);
  std::sort(extra.begin(), extra.end(), by_tag);
  aiperf.insert(aiperf.end(), extra.begin(), extra.end());
  return aiperf;
}

}  // namespace

std::string summary_csv(const metrics::BenchmarkResult& result) {
  std::string out;
  auto records = ordered(result, false);
  auto scalars = ordered(result, true);
  if (!records.empty()) {
    out += "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n";
    for (const auto* m : records) {
      const auto& s = m->stats;
      out += label(*m->info);
      for (double v : {s.avg, s.min, s.max, s.sum}) out += "," + cell(v, false);
      for (double v : s.p) out += "," + cell(v, false);
      out += "," + cell(s.std, false) + "\r\n";
    }
  }
  if (!records.empty() && !scalars.empty()) out += "\r\n";
  if (!scalars.empty()) {
    out += "Metric,Value\r\n";
    for (const auto* m : scalars)
      out += label(*m->info) + "," + cell(m->value, m->info->integral) + "\r\n";
  }
  return out;
}

}  // namespace inferperf::report
