#include "sweep/search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/load_boundary.hpp"
#include "report/console_table.hpp"
#include "report/format.hpp"

namespace inferperf::sweep {

std::string dimension_value(const SearchDimension& d, double v) {
  if (d.integer || v == std::floor(v)) {
    const auto whole = std::to_string(std::llround(v));
    return d.float_flag ? whole + ".0" : whole;
  }
  return python_float(v);
}

namespace {

nlohmann::ordered_json number_or_null(std::optional<double> v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json dimension_number(const SearchDimension& d, double v) {
  return d.integer ? nlohmann::ordered_json(std::llround(v)) : nlohmann::ordered_json(v);
}

// "concurrency=8 request_rate=2.5"
std::string point_text(const SearchArgs& s, const std::vector<double>& values) {
  std::string out;
  for (std::size_t k = 0; k < s.dimensions.size() && k < values.size(); ++k)
    out += (out.empty() ? "" : " ") + s.dimensions[k].name + "=" +
           dimension_value(s.dimensions[k], values[k]);
  return out;
}

nlohmann::ordered_json iteration_json(const SearchArgs& s, const SearchIteration& it) {
  nlohmann::ordered_json j;
  j["iteration"] = it.index;
  j["parameters"] = search_parameters_json(s, it.values);
  j["objective"] = {{"metric", *s.metric},
                    {"stat", s.stat},
                    {"direction", *s.direction},
                    {"value", number_or_null(it.objective)}};
  j["sla"] = sla_checks_json(it.checks);
  j["feasible"] = it.feasible;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const auto& r : it.result.runs) {
    nlohmann::ordered_json run = {{"label", r.label}, {"ok", r.ok}};
    if (!r.ok) run["error"] = r.error;
    runs.push_back(std::move(run));
  }
  j["runs"] = std::move(runs);
  return j;
}

const SearchIteration* iteration_at(const std::vector<SearchIteration>& iterations,
                                    std::optional<double> value) {
  if (!value) return nullptr;
  for (const auto& it : iterations)
    if (!it.values.empty() && it.values.front() == *value) return &it;
  return nullptr;
}

nlohmann::ordered_json recipe_json(const SearchArgs& s) {
  nlohmann::ordered_json thresholds = nlohmann::ordered_json::object();
  const auto put = [&](const char* key, const std::optional<double>& v) {
    if (v) thresholds[key] = *v;
  };
  put("ttft_sla_ms", s.ttft_sla_ms);
  put("itl_sla_ms", s.itl_sla_ms);
  put("tpot_sla_ms", s.tpot_sla_ms);
  put("e2e_sla_ms", s.e2e_sla_ms);
  put("error_rate_sla", s.error_rate_sla);
  put("slo_attainment_fraction", s.slo_attainment_fraction);
  nlohmann::ordered_json j = {{"name", *s.recipe}};
  if (*s.recipe == "max-concurrency-under-sla")
    j["style"] = s.planner == "monotonic_sla" ? "monotonic"
                 : s.planner == "bayesian"    ? "bo"
                                              : "smooth_isotonic";
  j["thresholds"] = std::move(thresholds);
  return j;
}

nlohmann::ordered_json boundary_json(const SearchArgs& s,
                                     const std::vector<SearchIteration>& iterations) {
  if (iterations.empty() || s.dimensions.size() != 1) return nullptr;
  const SearchDimension& d = s.dimensions.front();
  const SearchBoundary b = search_boundary(iterations);
  const auto num = [&](std::optional<double> v) {
    return v ? dimension_number(d, *v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json j;
  j["parameter"] = d.path;
  j["largest_feasible"] = num(b.largest_feasible);
  j["smallest_infeasible"] = num(b.smallest_infeasible);
  j["resolution"] = b.largest_feasible && b.smallest_infeasible
                        ? dimension_number(d, *b.smallest_infeasible - *b.largest_feasible)
                        : nlohmann::ordered_json(nullptr);
  nlohmann::ordered_json limiting = nlohmann::ordered_json::array();
  if (const SearchIteration* at = iteration_at(iterations, b.smallest_infeasible)) {
    for (const auto& c : at->checks)
      if (!c.holds)
        limiting.push_back({{"filter", c.filter->text}, {"value", number_or_null(c.value)}});
  }
  j["limiting_filters"] = std::move(limiting);
  return j;
}

}  // namespace

SearchBoundary boundary_of(std::vector<std::pair<double, bool>> points) {
  const core::LoadBoundary b = core::load_boundary(std::move(points));
  return {b.largest_passing, b.largest_passing ? b.first_failing_above : b.smallest_failing};
}

SearchBoundary search_boundary(const std::vector<SearchIteration>& iterations) {
  std::vector<std::pair<double, bool>> points;
  for (const auto& it : iterations)
    if (!it.values.empty()) points.push_back({it.values.front(), it.feasible});
  return boundary_of(std::move(points));
}

const SearchIteration* best_iteration(const SearchArgs& s,
                                      const std::vector<SearchIteration>& iterations) {
  const bool maximize = s.direction == "maximize";
  const SearchIteration* best = nullptr;
  for (const auto& it : iterations) {
    if (!it.feasible || !it.objective) continue;
    if (!best || (maximize ? *it.objective > *best->objective : *it.objective < *best->objective) ||
        (*it.objective == *best->objective && it.values > best->values))
      best = &it;
  }
  return best;
}

nlohmann::ordered_json search_parameters_json(const SearchArgs& s,
                                              const std::vector<double>& values) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < s.dimensions.size() && k < values.size(); ++k)
    j[s.dimensions[k].path] = dimension_number(s.dimensions[k], values[k]);
  return j;
}

nlohmann::ordered_json sla_checks_json(const std::vector<SlaCheck>& checks) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& c : checks)
    out.push_back(
        {{"filter", c.filter->text}, {"value", number_or_null(c.value)}, {"passed", c.holds}});
  return out;
}

nlohmann::ordered_json sla_constraints_json(const std::vector<SlaFilter>& filters) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& f : filters)
    out.push_back({{"metric", f.tag}, {"stat", f.stat}, {"op", f.op}, {"threshold", f.threshold}});
  return out;
}

nlohmann::ordered_json search_history_json(const SearchArgs& s, int num_profile_runs,
                                           const std::vector<SearchIteration>& iterations,
                                           const std::string& stop_reason) {
  nlohmann::ordered_json config;
  config["planner"] = s.planner;
  config["search_space"] = nlohmann::ordered_json::array();
  for (const auto& d : s.dimensions)
    config["search_space"].push_back({{"path", d.path},
                                      {"lo", dimension_number(d, d.lo)},
                                      {"hi", dimension_number(d, d.hi)},
                                      {"kind", d.integer ? "int" : "real"},
                                      {"scale", d.log_scale ? "log" : "linear"}});
  config["objectives"] = nlohmann::ordered_json::array(
      {{{"metric", *s.metric}, {"stat", s.stat}, {"direction", *s.direction}}});
  config["sla_filters"] = sla_constraints_json(s.filters);
  config["max_iterations"] = *s.max_iterations;
  if (s.planner == "bayesian") config["n_initial_points"] = s.initial_points;
  config["num_profile_runs"] = num_profile_runs;

  nlohmann::ordered_json out;
  out["config"] = std::move(config);
  nlohmann::ordered_json its = nlohmann::ordered_json::array();
  for (const auto& it : iterations) its.push_back(iteration_json(s, it));
  out["iterations"] = std::move(its);
  if (const SearchIteration* best = best_iteration(s, iterations)) {
    out["best_trials"] =
        nlohmann::ordered_json::array({{{"iteration", best->index},
                                        {"parameters", search_parameters_json(s, best->values)},
                                        {"objective", *best->objective}}});
  } else {
    out["best_trials"] = nullptr;
  }
  out["boundary_summary"] = boundary_json(s, iterations);
  out["recipe"] = s.recipe ? recipe_json(s) : nlohmann::ordered_json(nullptr);
  out["convergence_reason"] =
      stop_reason.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(stop_reason);
  return out;
}

namespace {

// One dimension: the capacity answer, what broke above it and, with repeated runs, each filter's
// confidence interval on both sides.
std::string boundary_report(const SearchArgs& s, const std::vector<SearchIteration>& iterations,
                            const std::string& stop_reason, double confidence_level) {
  const SearchDimension& d = s.dimensions.front();
  const SearchBoundary b = search_boundary(iterations);
  const auto& good = b.largest_feasible;
  const auto& bad = b.smallest_infeasible;
  std::string out;
  if (!good) {
    out += fmt::format("Capacity: no {} in [{}, {}] meets every SLA filter", d.name,
                       dimension_value(d, d.lo), dimension_value(d, d.hi));
  } else {
    out += fmt::format("Capacity: the largest {} meeting every SLA filter is {}", d.name,
                       dimension_value(d, *good));
    if (bad)
      out += fmt::format(" ({} {} does not)", d.name, dimension_value(d, *bad));
    else
      out += fmt::format(" (the largest run; the range ends at {})", dimension_value(d, d.hi));
  }
  out += "\n";
  if (const SearchIteration* failing = iteration_at(iterations, bad)) {
    for (const auto& c : failing->checks)
      if (!c.holds) out += "  breaks: " + describe_sla_value(*c.filter, c.value) + "\n";
  }
  for (const auto& at : {good, bad}) {
    const SearchIteration* it = iteration_at(iterations, at);
    if (!it) continue;
    for (const auto& f : s.filters) {
      std::vector<double> values;
      for (const auto& r : it->result.runs)
        if (const auto v = r.ok ? run_metric(r, f.tag, f.stat) : std::nullopt) values.push_back(*v);
      if (values.size() < 2) continue;
      const RunStats st = run_stats(values, confidence_level);
      out += fmt::format("  at {} {}: {} {} {} ({:g} % CI {} to {}, {} runs)\n", d.name,
                         dimension_value(d, *at), f.tag, f.stat, report::with_thousands(st.mean),
                         confidence_level * 100, report::with_thousands(st.ci_low),
                         report::with_thousands(st.ci_high), st.n);
    }
  }
  if (stop_reason == "max_iterations" && s.planner != "bayesian")
    out += fmt::format(
        "  stopped after --search-max-iterations {}: the boundary lies between {} and {}\n",
        *s.max_iterations, good ? dimension_value(d, *good) : "none",
        bad ? dimension_value(d, *bad) : dimension_value(d, d.hi));
  return out;
}

}  // namespace

std::string search_report(const SearchArgs& s, const std::vector<SearchIteration>& iterations,
                          const std::string& stop_reason, double confidence_level) {
  std::vector<std::string> header = {"iteration"};
  for (const auto& d : s.dimensions) header.push_back(d.name);
  for (const auto& f : s.filters) header.push_back(fmt::format("{} {}", f.tag, f.stat));
  header.push_back(fmt::format("{} {}", *s.metric, s.stat));
  header.push_back("meets SLA");
  std::vector<std::vector<std::string>> rows;
  for (const auto& it : iterations) {
    std::vector<std::string> row = {std::to_string(it.index)};
    for (std::size_t k = 0; k < s.dimensions.size(); ++k)
      row.push_back(k < it.values.size() ? dimension_value(s.dimensions[k], it.values[k]) : "");
    for (const auto& c : it.checks)
      row.push_back(c.value ? report::with_thousands(*c.value) : std::string("N/A"));
    row.push_back(it.objective ? report::with_thousands(*it.objective) : std::string("N/A"));
    row.push_back(it.feasible ? "yes" : "no");
    rows.push_back(std::move(row));
  }
  std::string out = report::render_table("inferperf | search (" + s.planner + ")", header, rows,
                                         1 + s.dimensions.size());
  if (s.planner == "bayesian") {
    const SearchIteration* best = best_iteration(s, iterations);
    out +=
        best ? fmt::format("Best: {} with {} {} {} (iteration {}{})\n", point_text(s, best->values),
                           *s.metric, s.stat, report::with_thousands(*best->objective), best->index,
                           s.filters.empty() ? "" : ", meeting every SLA filter")
             : std::string("Best: no iteration met every SLA filter\n");
    if (!stop_reason.empty()) out += "  stopped: " + stop_reason + "\n";
  }
  if (s.dimensions.size() == 1 && !s.filters.empty())
    out += boundary_report(s, iterations, stop_reason, confidence_level);
  return out;
}

void add_sla_to_summary(nlohmann::ordered_json& summary, const std::vector<PointResult>& points,
                        const std::vector<SlaFilter>& filters) {
  summary["metadata"]["sla_filters"] = sla_constraints_json(filters);
  auto& list = summary["points"];
  for (std::size_t i = 0; i < points.size() && i < list.size(); ++i) {
    const auto checks = check_sla(filters, points[i]);
    list[i]["sla"] = sla_checks_json(checks);
    list[i]["meets_sla"] = all_hold(checks);
  }
}

std::string sweep_sla_report(const std::vector<SweepParam>& params,
                             const std::vector<PointResult>& points,
                             const std::vector<SlaFilter>& filters) {
  std::vector<std::string> header = {"point"};
  for (const auto& f : filters) header.push_back(fmt::format("{} {}", f.tag, f.stat));
  header.push_back("meets SLA");
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> passing;
  // One swept flag: the boundary, as a search's (the last pass below the first failure above it).
  std::vector<std::pair<double, bool>> axis;
  for (const auto& p : points) {
    const auto checks = check_sla(filters, p);
    const bool ok = all_hold(checks);
    std::vector<std::string> row = {p.point.label};
    for (const auto& c : checks)
      row.push_back(c.value ? report::with_thousands(*c.value) : std::string("N/A"));
    row.push_back(ok ? "yes" : "no");
    rows.push_back(std::move(row));
    if (ok) passing.push_back(p.point.label);
    if (params.size() == 1 && !p.point.values.empty())
      axis.push_back({std::strtod(p.point.values.front().c_str(), nullptr), ok});
  }
  const SearchBoundary b = boundary_of(axis);
  const auto text = [&](double v) {
    for (const auto& p : points)
      if (!p.point.values.empty() && std::strtod(p.point.values.front().c_str(), nullptr) == v)
        return p.point.values.front();
    return python_float(v);
  };
  std::string out = report::render_table("inferperf | sweep against the SLA", header, rows, 1);
  if (passing.empty()) {
    out += fmt::format("Capacity: no point meets every SLA filter\n");
  } else if (params.size() == 1 && b.largest_feasible) {
    const std::string& name = params.front().name;
    out += fmt::format("Capacity: the largest {} meeting every SLA filter is {}", name,
                       text(*b.largest_feasible));
    if (b.smallest_infeasible)
      out += fmt::format(" ({} {} does not)", name, text(*b.smallest_infeasible));
    else
      out += " (the largest swept)";
    out += "\n";
  } else {
    std::string list;
    for (const auto& l : passing) list += (list.empty() ? "" : "; ") + l;
    out += fmt::format("Capacity: {} of {} points meet every SLA filter: {}\n", passing.size(),
                       points.size(), list);
  }
  return out;
}

}  // namespace inferperf::sweep
