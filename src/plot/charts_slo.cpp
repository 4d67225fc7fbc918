// slo_attainment (docs/plots.md, Charts): the capacity answer of a sweep or a search judged
// against SLA filters. Each filter's value as a percentage of its threshold, so filters of
// different units share one axis and 100 % is the line each of them is judged against.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "plot/charts.hpp"
#include "plot/slo.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;

namespace {

constexpr const char* kName = "slo_attainment";
constexpr std::size_t kFailColour = 4;       // red in both themes
constexpr std::size_t kReferenceColour = 7;  // grey: the threshold and the capacity line
constexpr int kCrossPoint = 2;               // gnuplot's x

// Filters take the palette in order, passing over the colours kept for the failures and the
// reference lines; the first is NVIDIA green, as every chart's first series.
std::size_t filter_colour(std::size_t i) {
  constexpr std::size_t kOrder[] = {0, 1, 2, 3, 5, 6};
  return kOrder[i % std::size(kOrder)];
}

std::string join_with(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// The filters the first point at `load` that fails breaks, with the value and its percentage:
// "inter_token_latency p99 < 30 (35.02, 117 % of the threshold)".
std::string broken_at(const SloData& d, double load) {
  const auto at = std::find_if(d.points.begin(), d.points.end(),
                               [&](const SloPoint& p) { return p.load == load && !p.meets; });
  if (at == d.points.end()) return "";
  std::vector<std::string> parts;
  for (std::size_t k = 0; k < d.filters.size(); ++k) {
    if (at->passed[k]) continue;
    std::string part = d.filters[k].describe() + " (" +
                       (std::isnan(at->value[k]) ? "no value" : slo_number(at->value[k]));
    if (std::isfinite(at->percent[k]))
      part += fmt::format(", {:.0f} % of the threshold", at->percent[k]);
    parts.push_back(part + ")");
  }
  return join_with(parts, "; ");
}

std::string title_of(const SloData& d) {
  if (!d.boundary) return fmt::format("SLO attainment: no {} meets every SLO", d.axis);
  return fmt::format("SLO attainment: capacity is {} {}", d.axis, slo_number(*d.boundary));
}

// Loads where no filter has a value (every run failed), which the chart cannot show as points:
// "; no value at concurrency 8".
std::string without_values(const SloData& d) {
  std::vector<std::string> loads;
  for (const auto& p : d.points)
    if (std::all_of(p.value.begin(), p.value.end(), [](double v) { return std::isnan(v); }))
      loads.push_back(slo_number(p.load));
  return loads.empty() ? "" : fmt::format("; no value at {} {}", d.axis, join_with(loads, ", "));
}

// The answer in words, under the title.
std::string answer_of(const SloData& d) {
  const std::string& a = d.axis;
  if (!d.boundary) {
    if (d.search && d.range_lo && d.range_hi)
      return fmt::format("No passing point: no {} in [{}, {}] meets every SLO{}", a,
                         slo_number(*d.range_lo), slo_number(*d.range_hi), without_values(d));
    return fmt::format("No passing point: every {} tried breaks at least one SLO{}", a,
                       without_values(d));
  }
  const std::string b = slo_number(*d.boundary);
  std::string s;
  if (d.first_failure) {
    const std::string what = broken_at(d, *d.first_failure);
    s = fmt::format("{} {} {}", a, slo_number(*d.first_failure),
                    what.empty() ? std::string("breaks an SLO") : "breaks " + what);
  } else if (d.search && d.range_hi) {
    s = fmt::format("{} {}, the largest tried, meets every SLO; the range ends at {}", a, b,
                    slo_number(*d.range_hi));
  } else {
    s = fmt::format("{} {}, the largest swept, meets every SLO: capacity is at least {}", a, b, b);
  }
  if (!d.passing_above.empty()) {
    std::vector<std::string> loads;
    for (double v : d.passing_above) loads.push_back(slo_number(v));
    s += fmt::format("; {} {} passes again above it, not counted", a, join_with(loads, ", "));
  }
  return s + without_values(d);
}

std::string caption_of(const SloData& d, const std::string& answer) {
  std::string c = fmt::format(
      "{}. Each SLA filter's value at each {} as a percentage of its threshold (100 % is exactly "
      "at the SLO; from {}); a cross marks a point breaking that filter. The vertical line is the "
      "capacity: {}.",
      answer, d.axis, d.source.string(),
      d.search ? "the search's boundary_summary.largest_feasible"
               : "the largest " + d.axis + " meeting every filter below the first that breaks one");
  for (const auto& f : d.filters)
    if (f.threshold == 0) c += " " + f.describe() + " has no percentage (threshold 0).";
  return c;
}

}  // namespace

Chart slo_chart(const SloData& d, const std::string& name) {
  Chart c;
  c.name = name;
  c.title = title_of(d);
  c.subtitle = answer_of(d);
  c.x_label = d.search ? d.axis + " (search dimension)" : d.axis + " (swept)";
  c.y_label = "Measured value (% of the SLO threshold)";
  c.caption = caption_of(d, c.subtitle);
  c.y_from_zero = true;
  if (d.points.empty()) return c;

  double top = 100;
  Series fails;
  fails.style = Style::kPoints;
  fails.color = kFailColour;
  fails.point_type = kCrossPoint;
  fails.point_size = 3;
  fails.title = "breaks its SLO";
  for (std::size_t k = 0; k < d.filters.size(); ++k) {
    Series s;
    s.style = Style::kLinesPoints;
    s.color = filter_colour(k);
    s.point_size = 1.6;
    s.title = d.filters[k].describe() +
              (d.filters[k].upper_bound() ? " (passes below 100 %)" : " (passes above 100 %)");
    for (const auto& p : d.points) {
      const double pct = p.percent[k];
      if (!std::isfinite(pct)) continue;
      s.x.push_back(p.load);
      s.y.push_back(pct);
      top = std::max(top, pct);
      if (!p.passed[k]) {
        fails.x.push_back(p.load);
        fails.y.push_back(pct);
      }
    }
    c.series.push_back(std::move(s));
  }
  c.series.push_back(std::move(fails));

  // The threshold spans the loads tried; a single load gets a short line around it.
  double lo = d.points.front().load, hi = d.points.back().load;
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  Series limit;
  limit.style = Style::kLines;
  limit.color = kReferenceColour;
  limit.dashed = true;
  limit.title = "SLO threshold (100 %)";
  limit.x = {lo, hi};
  limit.y = {100, 100};
  c.series.push_back(std::move(limit));

  if (d.boundary) {
    Series cap;
    cap.style = Style::kLines;
    cap.color = kReferenceColour;
    cap.title = "capacity: the largest " + d.axis + " meeting every SLO";
    cap.x = {*d.boundary, *d.boundary};
    cap.y = {0, top * 1.05};
    cap.labels = {"", fmt::format("capacity: {} {}", d.axis, slo_number(*d.boundary))};
    c.series.push_back(std::move(cap));
  }
  return c;
}

void add_slo_charts(const std::vector<fs::path>& roots, ChartSet& set) {
  std::vector<std::string> reasons;
  std::size_t drawn = 0;
  for (const auto& file : find_slo_files(roots)) {
    const SloRead r = read_slo_file(file);
    if (!r.data) {
      if (!r.skip_reason.empty()) reasons.push_back(r.skip_reason);
      continue;
    }
    // Several sweeps or searches compared: one chart each, the first keeps the plain name.
    const std::string name = drawn == 0 ? kName : fmt::format("{}_{}", kName, drawn + 1);
    set.add(slo_chart(*r.data, name), file.string() + " has no value to draw");
    ++drawn;
  }
  for (const auto& reason : reasons) set.skipped.push_back({kName, reason});
  if (drawn == 0 && reasons.empty())
    set.skipped.push_back({kName,
                           "no sweep_summary.json with SLA results and no search_history.json "
                           "with SLA filters in the folders given (profile --search-sla)"});
}

}  // namespace inferperf::plot
