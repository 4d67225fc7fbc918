// Reading the SLA verdicts of a sweep (sweep_summary.json) or a search (search_history.json)
// into the load axis, each filter's value as a percentage of its threshold, and the boundary.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "artifacts/run_folder.hpp"
#include "plot/plot_error.hpp"
#include "plot/slo.hpp"

#include "core/load_boundary.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// Access to the fields of one file: a missing or null field is the caller's to judge; a field of
// the wrong type is a broken file, and the error names the file and the field.
class Fields {
 public:
  explicit Fields(fs::path file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const char* expected) const {
    throw input_error("inferperf plot: " + file_.string() + ": field " + field + " is not " +
                      expected);
  }
  static const json* find(const json& j, const std::string& key) {
    if (!j.is_object()) return nullptr;
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
  }
  const json* array(const json& j, const std::string& key, const std::string& field) const {
    const json* v = find(j, key);
    if (v && !v->is_array()) fail(field, "an array");
    return v;
  }
  const json* object(const json& j, const std::string& key, const std::string& field) const {
    const json* v = find(j, key);
    if (v && !v->is_object()) fail(field, "an object");
    return v;
  }
  std::optional<double> number(const json& j, const std::string& key,
                               const std::string& field) const {
    const json* v = find(j, key);
    if (!v) return std::nullopt;
    if (!v->is_number()) fail(field, "a number");
    return v->get<double>();
  }
  std::string string(const json& j, const std::string& key, const std::string& field) const {
    const json* v = find(j, key);
    if (!v) return "";
    if (!v->is_string()) fail(field, "a string");
    return v->get<std::string>();
  }
  std::optional<bool> boolean(const json& j, const std::string& key,
                              const std::string& field) const {
    const json* v = find(j, key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) fail(field, "true or false");
    return v->get<bool>();
  }

 private:
  fs::path file_;
};

std::string filter_text(const SloFilter& f) {
  return fmt::format("{}:{}:{}:{:g}", f.metric, f.stat, f.op, f.threshold);
}

// `metric:stat:op:threshold`, for a file that names its filters only in each point's verdicts.
std::optional<SloFilter> parse_filter(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (parts.size() != 4) return std::nullopt;
  char* end = nullptr;
  const double threshold = std::strtod(parts[3].c_str(), &end);
  if (end == parts[3].c_str() || *end != '\0') return std::nullopt;
  return SloFilter{text, parts[0], parts[1], parts[2], threshold};
}

// The filters of metadata.sla_filters / config.sla_filters ({metric, stat, op, threshold}).
std::vector<SloFilter> read_filters(const Fields& f, const json* list, const std::string& field) {
  std::vector<SloFilter> out;
  if (!list) return out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& e = (*list)[i];
    const std::string at = fmt::format("{}[{}]", field, i);
    SloFilter s;
    s.metric = f.string(e, "metric", at + ".metric");
    s.stat = f.string(e, "stat", at + ".stat");
    s.op = f.string(e, "op", at + ".op");
    const auto threshold = f.number(e, "threshold", at + ".threshold");
    if (s.metric.empty() || s.op.empty() || !threshold)
      f.fail(at, "a filter with metric, op and threshold");
    s.threshold = *threshold;
    s.text = filter_text(s);
    out.push_back(std::move(s));
  }
  return out;
}

// Fills the point's per-filter entries from its `sla` array, matched to the filters in order
// (both files write the verdicts in the order of the filters).
void read_verdicts(const Fields& f, const json& entry, const std::string& at,
                   const std::vector<SloFilter>& filters, SloPoint& p) {
  const json* sla = f.array(entry, "sla", at + ".sla");
  for (std::size_t k = 0; k < filters.size(); ++k) {
    const std::string field = fmt::format("{}.sla[{}]", at, k);
    const json* v = sla && k < sla->size() ? &(*sla)[k] : nullptr;
    const double value = v ? f.number(*v, "value", field + ".value").value_or(kNoValue) : kNoValue;
    const bool passed = v && f.boolean(*v, "passed", field + ".passed").value_or(false);
    const double pct = value / filters[k].threshold * 100;
    p.value.push_back(value);
    p.percent.push_back(std::isfinite(pct) ? pct : kNoValue);
    p.passed.push_back(passed);
  }
}

// The filters named by the first point that has verdicts, when the file's metadata lacks them.
std::vector<SloFilter> filters_from_verdicts(const json& points) {
  std::vector<SloFilter> out;
  for (const auto& p : points) {
    const json* sla = Fields::find(p, "sla");
    if (!sla || !sla->is_array() || sla->empty()) continue;
    for (const auto& v : *sla) {
      const json* text = Fields::find(v, "filter");
      const auto parsed =
          text && text->is_string() ? parse_filter(text->get<std::string>()) : std::nullopt;
      if (!parsed) return {};
      out.push_back(*parsed);
    }
    break;
  }
  return out;
}

// A load that a sweep wrote as a number or as numeric text ("2.5").
std::optional<double> load_value(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (!v.is_string()) return std::nullopt;
  const std::string s = v.get<std::string>();
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return d;
}

void sort_by_load(std::vector<SloPoint>& points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const SloPoint& a, const SloPoint& b) { return a.load < b.load; });
}

std::string comma_list(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// The swept parameters' names: metadata.parameters[].name, else the first point's keys.
std::vector<std::string> swept_names(const Fields& f, const json& summary, const json& points) {
  std::vector<std::string> names;
  if (const json* md = f.object(summary, "metadata", "metadata"))
    if (const json* params = f.array(*md, "parameters", "metadata.parameters"))
      for (std::size_t i = 0; i < params->size(); ++i)
        names.push_back(
            f.string((*params)[i], "name", fmt::format("metadata.parameters[{}].name", i)));
  if (names.empty() && !points.empty())
    if (const json* first = f.object(points[0], "parameters", "points[0].parameters"))
      for (const auto& [key, value] : first->items()) names.push_back(key);
  return names;
}

}  // namespace

std::string SloFilter::describe() const {
  const char* sym = op == "lt" ? "<" : op == "le" ? "<=" : op == "gt" ? ">" : ">=";
  return fmt::format("{} {} {} {}", metric, stat, sym, slo_number(threshold));
}

std::string slo_number(double v) {
  if (!std::isfinite(v)) return "N/A";
  return std::fabs(v) >= 1000 ? fmt::format("{:.0f}", v) : fmt::format("{:.4g}", v);
}

SloBoundary sweep_boundary(const std::vector<SloPoint>& points) {
  std::vector<std::pair<double, bool>> judged;
  for (const auto& p : points) judged.push_back({p.load, p.meets});
  const core::LoadBoundary b = core::load_boundary(std::move(judged));
  return {b.largest_passing, b.first_failing_above};
}

SloRead slo_from_sweep_summary(const json& summary, const fs::path& source) {
  const Fields f(source);
  SloRead r;
  const json* points = f.array(summary, "points", "points");
  if (!points) return r;
  const bool judged = std::any_of(points->begin(), points->end(),
                                  [](const json& p) { return Fields::find(p, "sla") != nullptr; });
  if (!judged) return r;  // a sweep without SLA filters: nothing to chart, nothing to say

  const std::vector<std::string> names = swept_names(f, summary, *points);
  if (names.size() != 1) {
    r.skip_reason = fmt::format("{} varies {} parameters ({}): the chart needs a single load axis",
                                source.string(), names.size(), comma_list(names));
    return r;
  }
  SloData d;
  d.source = source;
  d.axis = names.front();
  const json* md = f.object(summary, "metadata", "metadata");
  d.filters = read_filters(f, md ? f.array(*md, "sla_filters", "metadata.sla_filters") : nullptr,
                           "metadata.sla_filters");
  if (d.filters.empty()) d.filters = filters_from_verdicts(*points);
  if (d.filters.empty()) {
    r.skip_reason = source.string() + " names no SLA filter (metadata.sla_filters)";
    return r;
  }
  for (std::size_t i = 0; i < points->size(); ++i) {
    const json& entry = (*points)[i];
    const std::string at = fmt::format("points[{}]", i);
    const json* params = f.object(entry, "parameters", at + ".parameters");
    const json* value = params ? Fields::find(*params, d.axis) : nullptr;
    const auto load = value ? load_value(*value) : std::nullopt;
    if (!load) {
      r.skip_reason = fmt::format("{}: {}.parameters.{} is not a number, not a load axis",
                                  source.string(), at, d.axis);
      return r;
    }
    SloPoint p;
    p.load = *load;
    read_verdicts(f, entry, at, d.filters, p);
    const bool all = std::all_of(p.passed.begin(), p.passed.end(), [](bool b) { return b; });
    p.meets = f.boolean(entry, "meets_sla", at + ".meets_sla").value_or(all);
    d.points.push_back(std::move(p));
  }
  sort_by_load(d.points);
  const SloBoundary b = sweep_boundary(d.points);
  d.boundary = b.largest_passing;
  d.first_failure = b.first_failing;
  for (const auto& p : d.points)
    if (p.meets && b.first_failing && p.load > *b.first_failing) d.passing_above.push_back(p.load);
  r.data = std::move(d);
  return r;
}

SloRead slo_from_search_history(const json& history, const fs::path& source) {
  const Fields f(source);
  SloRead r;
  const json* config = f.object(history, "config", "config");
  if (!config) return r;
  SloData d;
  d.source = source;
  d.search = true;
  d.filters =
      read_filters(f, f.array(*config, "sla_filters", "config.sla_filters"), "config.sla_filters");
  if (d.filters.empty()) return r;  // a search for an objective alone: no SLO to chart

  const json* space = f.array(*config, "search_space", "config.search_space");
  std::vector<std::string> paths;
  for (std::size_t i = 0; space && i < space->size(); ++i)
    paths.push_back(f.string((*space)[i], "path", fmt::format("config.search_space[{}].path", i)));
  if (paths.size() != 1) {
    r.skip_reason =
        fmt::format("{} searches {} dimensions ({}): the chart needs a single load axis",
                    source.string(), paths.size(), comma_list(paths));
    return r;
  }
  const std::string& path = paths.front();
  // "phases.profiling.concurrency" reads as "concurrency", as the console names it.
  d.axis = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
  d.range_lo = f.number((*space)[0], "lo", "config.search_space[0].lo");
  d.range_hi = f.number((*space)[0], "hi", "config.search_space[0].hi");

  const json* iterations = f.array(history, "iterations", "iterations");
  for (std::size_t i = 0; iterations && i < iterations->size(); ++i) {
    const json& entry = (*iterations)[i];
    const std::string at = fmt::format("iterations[{}]", i);
    const json* params = f.object(entry, "parameters", at + ".parameters");
    const auto load = params ? f.number(*params, path, at + ".parameters." + path) : std::nullopt;
    if (!load) continue;  // an iteration that never ran a point
    SloPoint p;
    p.load = *load;
    read_verdicts(f, entry, at, d.filters, p);
    p.meets = f.boolean(entry, "feasible", at + ".feasible").value_or(false);
    d.points.push_back(std::move(p));
  }
  if (d.points.empty()) {
    r.skip_reason = source.string() + " has no iteration yet";
    return r;
  }
  sort_by_load(d.points);
  if (const json* b = f.object(history, "boundary_summary", "boundary_summary")) {
    d.boundary = f.number(*b, "largest_feasible", "boundary_summary.largest_feasible");
    d.first_failure = f.number(*b, "smallest_infeasible", "boundary_summary.smallest_infeasible");
  } else {
    // A history written before boundary_summary: the search's own rule, the largest feasible
    // load and the smallest infeasible one above it.
    for (const auto& p : d.points)
      if (p.meets) d.boundary = p.load;
    for (const auto& p : d.points)
      if (!p.meets && (!d.boundary || p.load > *d.boundary) && !d.first_failure)
        d.first_failure = p.load;
  }
  r.data = std::move(d);
  return r;
}

SloRead read_slo_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw input_error("inferperf plot: " + file.string() + ": cannot be read");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw input_error("inferperf plot: " + file.string() + ": not valid JSON (" + e.what() + ")");
  }
  if (file.filename() == artifacts::kSearchHistoryJsonFileName)
    return slo_from_search_history(j, file);
  return slo_from_sweep_summary(j, file);
}

std::vector<fs::path> find_slo_files(const std::vector<fs::path>& paths) {
  std::vector<fs::path> found;
  std::set<fs::path> seen;
  auto look = [&](const fs::path& dir) {
    for (const char* name :
         {artifacts::kSweepSummaryJsonFileName, artifacts::kSearchHistoryJsonFileName}) {
      std::error_code ec;
      const fs::path file = dir / name;
      if (!fs::is_regular_file(file, ec)) continue;
      const fs::path key = fs::weakly_canonical(file, ec);
      if (seen.insert(ec ? file : key).second) found.push_back(file);
    }
  };
  for (const auto& p : paths) {
    look(p);
    std::vector<fs::path> subs;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(p, ec))
      if (e.is_directory(ec)) subs.push_back(e.path());
    std::sort(subs.begin(), subs.end());
    for (const auto& s : subs) look(s);
  }
  return found;
}

}  // namespace inferperf::plot
