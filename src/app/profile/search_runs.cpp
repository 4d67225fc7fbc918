// An adaptive search (--search-space, or a search recipe): each iteration runs the planner's point
// as --num-profile-runs child runs in search_iter_NNNN/profile_runs/run_NNNN, checks the
// --search-sla filters on their mean, and tells the planner; search_history.json is rewritten after
// every iteration, so a stopped search keeps what it learnt.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>

#include "app/exit_codes.hpp"
#include "app/logging.hpp"
#include "app/profile/child_runs.hpp"
#include "app/profile/orchestrator.hpp"
#include "app/profile/run_info.hpp"
#include "artifacts/run_folder.hpp"
#include "config/cli.hpp"
#include "core/statistics.hpp"
#include "core/uuid.hpp"
#include "sweep/confidence.hpp"
#include "sweep/search.hpp"
#include "sweep/search_driver.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

std::string iteration_folder(int index) {
  return fmt::format("search_iter_{:04d}", index);
}

// Each dimension as a one-value sweep parameter: child_args then sets its flag, and
// check_points checks a point's command line as it checks a sweep's.
std::vector<sweep::SweepParam> dimension_params(const sweep::SearchArgs& a) {
  std::vector<sweep::SweepParam> out;
  for (const auto& d : a.dimensions) out.push_back({d.name, d.flag, {}, d.path, d.dir_name});
  return out;
}

sweep::SweepPoint search_point(const sweep::SearchArgs& a, const std::vector<double>& values) {
  sweep::SweepPoint p;
  for (std::size_t k = 0; k < a.dimensions.size(); ++k) {
    const auto& d = a.dimensions[k];
    const std::string v = sweep::dimension_value(d, values[k]);
    p.values.push_back(v);
    p.folder += (k ? "__" : "") + d.dir_name + "_" + v;
    p.label += (k ? " " : "") + d.name + "=" + v;
    p.variation_label += (k ? ", " : "") + d.path + "=" + v;
  }
  return p;
}

// run_info's identity of one run (app/profile/run_info.hpp): the search id, the trial, the
// iteration as the variation.
std::string search_run_env(const std::string& search_id, const sweep::SearchArgs& a, int iteration,
                           int trial, const std::vector<double>& values) {
  nlohmann::ordered_json info;
  info["sweep_id"] = search_id;
  info["trial"] = trial - 1;
  info["run_label"] = sweep::run_folder(trial);
  info["variation_label"] = search_point(a, values).variation_label;
  info["variation_index"] = iteration - 1;
  info["variation_values"] = sweep::search_parameters_json(a, values);
  return std::string(kRunInfoEnv) + "=" + info.dump();
}

// The lowest and the highest point of the box: every child command line between them differs
// only in the numbers, so checking these two checks them all.
std::vector<std::vector<double>> box_corners(const sweep::SearchArgs& a) {
  std::vector<double> lo, hi;
  for (const auto& d : a.dimensions) {
    lo.push_back(d.lo);
    hi.push_back(d.hi);
  }
  return {lo, hi};
}

// --search-percentile-pooling pooled: the objective's percentile over every successful run's
// requests together (profile_export.jsonl), as numpy computes it.
std::optional<double> pooled_objective(const sweep::SearchArgs& a, const sweep::PointResult& p,
                                       const artifacts::ExportNames& names) {
  std::vector<double> all;
  for (const auto& r : p.runs) {
    if (!r.ok) continue;
    const auto v = read_run_values(r, names, &*a.metric);
    if (!v.metrics.empty())
      all.insert(all.end(), v.metrics.front().second.begin(), v.metrics.front().second.end());
  }
  if (all.empty()) return std::nullopt;
  std::sort(all.begin(), all.end());
  return core::percentile_linear(all, std::strtod(a.stat.c_str() + 1, nullptr));
}

struct SearchState {
  std::vector<sweep::SearchIteration> iterations;
  bool any_failed = false;
  bool bad_input = false;
};

// An iteration's verdict under `a`'s filters and objective (a tier re-judges another tier's runs).
void judge(const sweep::SearchArgs& a, const artifacts::ExportNames& names,
           sweep::SearchIteration& it) {
  it.checks = sweep::check_sla(a.filters, it.result);
  it.feasible = sweep::all_hold(it.checks);
  it.objective.reset();
  if (a.percentile_pooling == "pooled") {
    it.objective = pooled_objective(a, it.result, names);
  } else if (const auto v = sweep::point_metric(it.result, *a.metric, a.stat); v.is_number()) {
    it.objective = v.get<double>();
  }
}

// Runs iteration `index` at `v`: every trial, then the SLA checks and the per-iteration
// aggregate.
sweep::SearchIteration run_iteration(const sweep::SweepArgs& s, const sweep::SearchArgs& a,
                                     const fs::path& root, const artifacts::ExportNames& names,
                                     const std::string& search_id, int index,
                                     const std::vector<double>& v, SearchState& st) {
  const auto& o = s.options;
  const sweep::SweepPoint point = search_point(a, v);
  sweep::SearchIteration it;
  it.index = index;
  it.values = v;
  it.result.point = point;
  const fs::path dir = root / iteration_folder(index);
  for (int trial = 1; trial <= o.num_profile_runs && !stopping(); ++trial) {
    if (trial > 1) cooldown(o.profile_run_cooldown_s, "profile run");
    if (stopping()) break;
    sweep::RunArgs ra;
    ra.point_values = point.values;
    ra.artifact_dir = (dir / artifacts::kProfileRunsFolderName / sweep::run_folder(trial)).string();
    if (o.cache_salt_per_run) ra.cache_salt = sweep::random_cache_salt();
    ra.random_seed = run_seed(o, true, index - 1, trial, point.variation_label);
    ra.no_warmup = trial > 1 && o.disable_warmup_after_first;
    spdlog::info(
        "search iteration {}/{} {}{} -> {}", index, *a.max_iterations, point.label,
        o.num_profile_runs > 1 ? fmt::format(", run {}/{}", trial, o.num_profile_runs) : "",
        ra.artifact_dir);
    const int rc = spawn_and_wait(self_executable(), sweep::child_args(s, ra),
                                  {search_run_env(search_id, a, index, trial, v)});
    auto r = read_run(sweep::run_folder(trial), ra.artifact_dir, names, rc);
    if (!r.ok) {
      st.any_failed = true;
      spdlog::error("search iteration {} ({}): {}", index, point.label, r.error);
    }
    it.result.runs.push_back(std::move(r));
    if (rc == kExitSignal) note_child_stopped();
    if (rc == kExitBadConfig) {
      st.bad_input = true;
      spdlog::error("search iteration {}: its input was refused; the search stops", index);
      break;
    }
  }
  judge(a, names, it);
  if (!it.result.runs.empty()) {
    sweep::AggregateMeta meta{o.num_profile_runs, o.confidence_level, o.profile_run_cooldown_s,
                              nlohmann::ordered_json::object()};
    meta.extra["variation_label"] = point.variation_label;
    meta.extra["variation_values"] = sweep::search_parameters_json(a, v);
    const auto agg = sweep::aggregate_json(sweep::aggregate_runs(it.result.runs, meta));
    std::error_code ec;
    fs::create_directories(dir / artifacts::kAggregateFolderName, ec);
    write_or_warn(dir / artifacts::kAggregateFolderName / artifacts::kAggregateJsonFileName,
                  agg.dump(2) + "\n");
  }
  std::string verdict;
  for (const auto& c : it.checks)
    verdict += (verdict.empty() ? "" : "; ") + sweep::describe_sla_value(*c.filter, c.value);
  spdlog::info("search iteration {}: {} {} ({})", index, point.label,
               it.feasible ? "meets every SLA filter" : "fails the SLA", verdict);
  return it;
}

void print_search_dry_run(const sweep::SweepArgs& s, const fs::path& root) {
  const auto& a = s.search;
  std::string box;
  for (const auto& d : a.dimensions)
    box += fmt::format("{}{} in [{}, {}]", box.empty() ? "" : ", ", d.path,
                       sweep::dimension_value(d, d.lo), sweep::dimension_value(d, d.hi));
  std::cout << fmt::format(
      "dry run: a {} search of {}, at most {} iteration(s) x {} run(s), the command lines at the "
      "box's corners valid; nothing was sent\nroot: {}\n",
      a.planner, box, *a.max_iterations, s.options.num_profile_runs, root.string());
  int index = 1;
  for (const auto& corner : box_corners(a)) {
    sweep::RunArgs ra;
    ra.point_values = search_point(a, corner).values;
    ra.artifact_dir =
        (root / iteration_folder(index) / artifacts::kProfileRunsFolderName / sweep::run_folder(1))
            .string();
    ra.random_seed =
        run_seed(s.options, true, index - 1, 1, search_point(a, corner).variation_label);
    std::cout << config::build_cli_command(sweep::child_args(s, ra)) << "\n";
    ++index;
  }
  std::cout << (a.planner == "bayesian"
                    ? "(the iterations run the planner's proposals inside the box)\n"
                    : "(later iterations run values between the largest that met the SLA and the "
                      "smallest that did not)\n");
}

// One search of a tiered search (or the only one): its filters, the iterations it looked at
// (run for it, or run for an earlier tier and re-judged) and why it stopped.
struct TierState {
  std::string label;  // "" without --search-sla-tier
  sweep::SearchArgs args;
  std::vector<sweep::SearchIteration> iterations;
  std::string reason;
};

struct TieredSearch {
  const sweep::SweepArgs& s;
  fs::path root;
  artifacts::ExportNames names;
  std::string search_id;
  std::uint64_t seed;
  SearchState st;  // every point run, in order: search_iter_0001, 0002, ...
};

// Each tier's search: --search-sla plus the tier's filters; without tiers one search.
std::vector<TierState> tier_states(const sweep::SearchArgs& a) {
  if (a.tiers.empty()) return {{"", a, {}, ""}};
  std::vector<TierState> out;
  for (const auto& tier : a.tiers) {
    TierState t{tier.label, a, {}, ""};
    t.args.filters.insert(t.args.filters.end(), tier.filters.begin(), tier.filters.end());
    out.push_back(std::move(t));
  }
  return out;
}

// search_history.json: the first tier's search at the top (AIPerf 0.11's fields) and, for a
// tiered search, every tier's filters, iterations, best trial and boundary under "tiers".
void write_history(const TieredSearch& t, const std::vector<TierState>& tiers) {
  const int runs = t.s.options.num_profile_runs;
  nlohmann::ordered_json h = sweep::search_history_json(
      tiers.front().args, runs, tiers.front().iterations, tiers.front().reason);
  if (!tiers.front().label.empty()) {
    h["tiers"] = nlohmann::ordered_json::array();
    for (const auto& tier : tiers) {
      const auto one = sweep::search_history_json(tier.args, runs, tier.iterations, tier.reason);
      nlohmann::ordered_json its = nlohmann::ordered_json::array();
      for (const auto& it : tier.iterations) its.push_back(it.index);
      h["tiers"].push_back({{"label", tier.label},
                            {"sla_filters", one["config"]["sla_filters"]},
                            {"iterations", its},
                            {"best_trials", one["best_trials"]},
                            {"boundary_summary", one["boundary_summary"]},
                            {"convergence_reason", one["convergence_reason"]}});
    }
  }
  write_or_warn(t.root / artifacts::kSearchHistoryJsonFileName, h.dump(2) + "\n");
}

// Every tier in turn; a point an earlier tier ran is re-judged, not run again.
std::vector<TierState> run_tiers(TieredSearch& t) {
  std::vector<TierState> tiers = tier_states(t.s.search);
  for (std::size_t k = 0; k < tiers.size() && !stopping() && !t.st.bad_input; ++k) {
    TierState& tier = tiers[k];
    if (!tier.label.empty()) spdlog::info("search: SLA tier {}", tier.label);
    sweep::SearchDriver driver(tier.args, t.seed);
    while (true) {
      const auto next = driver.next();
      if (!next) {
        tier.reason = driver.reason();
        break;
      }
      const auto seen = std::find_if(t.st.iterations.begin(), t.st.iterations.end(),
                                     [&](const auto& it) { return it.values == *next; });
      if (seen != t.st.iterations.end()) {
        tier.iterations.push_back(*seen);
        judge(tier.args, t.names, tier.iterations.back());
      } else {
        if (!t.st.iterations.empty()) cooldown(t.s.options.sweep_cooldown_s, "search");
        if (stopping()) break;
        const int index = static_cast<int>(t.st.iterations.size()) + 1;
        auto it = run_iteration(t.s, tier.args, t.root, t.names, t.search_id, index, *next, t.st);
        // An iteration cut short by a signal or a refused input says nothing about the SLA.
        if (stopping() || t.st.bad_input) break;
        t.st.iterations.push_back(it);
        tier.iterations.push_back(std::move(it));
      }
      driver.record(tier.iterations.back());
      write_history(t, tiers);
    }
    if (stopping()) tier.reason = "interrupted";
    if (t.st.bad_input) tier.reason = "input_refused";
  }
  return tiers;
}

}  // namespace

int run_search(const sweep::SweepArgs& typed, const std::vector<std::string>& original) {
  sweep::SweepArgs s = typed;
  s.params = dimension_params(s.search);
  std::vector<sweep::SweepPoint> corners;
  for (const auto& c : box_corners(s.search)) corners.push_back(search_point(s.search, c));
  auto checked = check_points(s, corners);
  if (const int* rc = std::get_if<int>(&checked)) return *rc;
  const config::RunConfig& first = std::get<std::vector<config::RunConfig>>(checked).front();
  if (s.search.percentile_pooling == "pooled" &&
      first.output.export_level == config::ExportLevel::kSummary) {
    std::cerr << "error: --search-percentile-pooling pooled reads every request's value, which "
                 "--export-level summary does not write; use records or raw\n";
    return kExitBadConfig;
  }
  sweep::pin_warmup_concurrency(s, first);
  const auto& o = s.options;
  const fs::path root = o.artifact_dir
                            ? fs::path(*o.artifact_dir)
                            : fs::path(first.output.artifact_dir) /
                                  orchestrated_leaf(first, dimension_params(s.search), "search");
  if (o.dry_run) {
    print_search_dry_run(s, root);
    return kExitOk;
  }
  init_console_logging(config::to_string(first.log_level));
  std::error_code ec;
  fs::create_directories(root / artifacts::kLogsFolderName, ec);
  if (ec) {
    std::cerr << "error: cannot create artifact folder " << root << ": " << ec.message() << "\n";
    return kExitBadConfig;
  }
  add_log_file(root / artifacts::kLogsFolderName / artifacts::kLogFileName);
  spdlog::info("{}", config::build_cli_command(original));

  const artifacts::ExportNames names = artifacts::export_names(first.output.export_prefix);
  SignalScope signals;
  TieredSearch t{s, root, names, core::uuid4(), sweep::search_seed(s.search, o.random_seed), {}};
  const std::vector<TierState> tiers = run_tiers(t);
  const bool interrupted = stopping();
  write_history(t, tiers);
  for (const auto& tier : tiers) {
    if (!tier.label.empty()) std::cout << "\nSLA tier " << tier.label << ":";
    std::cout << "\n"
              << sweep::search_report(tier.args, tier.iterations, tier.reason, o.confidence_level);
  }
  std::cout << "Search history: " << (root / artifacts::kSearchHistoryJsonFileName).string()
            << "\n";
  if (interrupted) return kExitSignal;
  if (t.st.bad_input) return kExitBadConfig;
  // --auto-plot: the SLO-attainment chart and every iteration's run charts.
  const bool plot_failed = o.auto_plot && !auto_plot(root, root / "plots");
  return t.st.any_failed || (plot_failed && o.plot_required) ? kExitRunFailed : kExitOk;
}

}  // namespace inferperf::app
