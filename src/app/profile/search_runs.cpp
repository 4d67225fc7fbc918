// An adaptive search (--search-space with --search-planner monotonic_sla): each iteration runs
// the planner's value as --num-profile-runs child runs in search_iter_NNNN/profile_runs/run_NNNN,
// checks the --search-sla filters on their mean, and tells the planner; search_history.json is
// rewritten after every iteration, so a stopped search keeps what it learnt.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>

#include "app/exit_codes.hpp"
#include "app/logging.hpp"
#include "app/profile/child_runs.hpp"
#include "app/profile/orchestrator.hpp"
#include "app/profile/run_info.hpp"
#include "artifacts/run_folder.hpp"
#include "config/cli.hpp"
#include "core/uuid.hpp"
#include "sweep/confidence.hpp"
#include "sweep/search.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSearchHistoryFileName = "search_history.json";

std::string iteration_folder(int index) {
  return fmt::format("search_iter_{:04d}", index);
}

// The dimension as a one-value sweep parameter: child_args then sets its flag, and
// check_points checks a point's command line as it checks a sweep's.
sweep::SweepParam dimension_param(const sweep::SearchDimension& d) {
  return {d.name, d.flag, {}, d.path, d.dir_name};
}

sweep::SweepPoint search_point(const sweep::SearchDimension& d, long long v) {
  const std::string value = sweep::dimension_value(d, v);
  return {{value}, d.dir_name + "_" + value, d.name + "=" + value, d.path + "=" + value};
}

// run_info's identity of one run (app/profile/run_info.hpp): the search id, the trial, the
// iteration as the variation.
std::string search_run_env(const std::string& search_id, const sweep::SearchDimension& d,
                           int iteration, int trial, long long v) {
  nlohmann::ordered_json info;
  info["sweep_id"] = search_id;
  info["trial"] = trial - 1;
  info["run_label"] = sweep::run_folder(trial);
  info["variation_label"] = search_point(d, v).variation_label;
  info["variation_index"] = iteration - 1;
  info["variation_values"] = {{d.path, v}};
  return std::string(kRunInfoEnv) + "=" + info.dump();
}

struct SearchState {
  std::vector<sweep::SearchIteration> iterations;
  bool any_failed = false;
  bool bad_input = false;
};

// Runs iteration `index` at `v`: every trial, then the SLA checks and the per-iteration
// aggregate.
sweep::SearchIteration run_iteration(const sweep::SweepArgs& s, const fs::path& root,
                                     const artifacts::ExportNames& names,
                                     const std::string& search_id, int index, long long v,
                                     SearchState& st) {
  const auto& o = s.options;
  const sweep::SearchDimension& d = s.search.dimensions.front();
  const sweep::SweepPoint point = search_point(d, v);
  sweep::SearchIteration it;
  it.index = index;
  it.value = v;
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
        "search iteration {}/{} {}{} -> {}", index, *s.search.max_iterations, point.label,
        o.num_profile_runs > 1 ? fmt::format(", run {}/{}", trial, o.num_profile_runs) : "",
        ra.artifact_dir);
    const int rc = spawn_and_wait(self_executable(), sweep::child_args(s, ra),
                                  {search_run_env(search_id, d, index, trial, v)});
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
  it.checks = sweep::check_sla(s.search.filters, it.result);
  it.feasible = sweep::all_hold(it.checks);
  const auto objective = sweep::point_metric(it.result, *s.search.metric, s.search.stat);
  if (objective.is_number()) it.objective = objective.get<double>();
  if (!it.result.runs.empty()) {
    sweep::AggregateMeta meta{o.num_profile_runs, o.confidence_level, o.profile_run_cooldown_s,
                              nlohmann::ordered_json::object()};
    meta.extra["variation_label"] = point.variation_label;
    meta.extra["variation_values"] = {{d.path, v}};
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
  const sweep::SearchDimension& d = s.search.dimensions.front();
  std::cout << fmt::format(
      "dry run: a {} search of {} in [{}, {}], at most {} iteration(s) x {} run(s), "
      "the command lines at both ends valid; nothing was sent\nroot: {}\n",
      s.search.planner, d.path, d.lo, d.hi, *s.search.max_iterations, s.options.num_profile_runs,
      root.string());
  int index = 1;
  for (const long long v : {d.lo, d.hi}) {
    sweep::RunArgs ra;
    ra.point_values = {sweep::dimension_value(d, v)};
    ra.artifact_dir =
        (root / iteration_folder(index) / artifacts::kProfileRunsFolderName / sweep::run_folder(1))
            .string();
    ra.random_seed = run_seed(s.options, true, index - 1, 1, search_point(d, v).variation_label);
    std::cout << config::build_cli_command(sweep::child_args(s, ra)) << "\n";
    ++index;
  }
  std::cout << "(later iterations run values between the largest that met the SLA and the "
               "smallest that did not)\n";
}

}  // namespace

int run_search(const sweep::SweepArgs& typed, const std::vector<std::string>& original) {
  sweep::SweepArgs s = typed;
  const sweep::SearchDimension& d = s.search.dimensions.front();
  s.params = {dimension_param(d)};
  auto checked = check_points(s, {search_point(d, d.lo), search_point(d, d.hi)});
  if (const int* rc = std::get_if<int>(&checked)) return *rc;
  const config::RunConfig& first = std::get<std::vector<config::RunConfig>>(checked).front();
  sweep::pin_warmup_concurrency(s, first);
  const auto& o = s.options;
  const fs::path root = o.artifact_dir
                            ? fs::path(*o.artifact_dir)
                            : fs::path(first.output.artifact_dir) /
                                  orchestrated_leaf(first, {dimension_param(d)}, "search");
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
  const std::string search_id = core::uuid4();
  SignalScope signals;
  const std::unique_ptr<sweep::SearchPlanner> planner_ptr =
      sweep::make_planner(s.search.planner, d.lo, d.hi, s.search.filters);
  sweep::SearchPlanner& planner = *planner_ptr;
  SearchState st;
  std::string stop_reason;
  const auto write_history = [&] {
    write_or_warn(root / kSearchHistoryFileName,
                  sweep::search_history_json(s.search, o.num_profile_runs, st.iterations, planner,
                                             stop_reason)
                          .dump(2) +
                      "\n");
  };
  while (true) {
    const auto next = planner.next();
    if (!next) {
      stop_reason = planner.reason();
      break;
    }
    if (static_cast<int>(st.iterations.size()) >= *s.search.max_iterations) {
      stop_reason = "max_iterations";
      break;
    }
    if (!st.iterations.empty()) cooldown(o.sweep_cooldown_s, "search");
    if (stopping()) break;
    const int index = static_cast<int>(st.iterations.size()) + 1;
    sweep::SearchIteration it = run_iteration(s, root, names, search_id, index, *next, st);
    // An iteration cut short by a signal or a refused input says nothing about the SLA.
    if (stopping() || st.bad_input) break;
    st.iterations.push_back(std::move(it));
    planner.record(*next, st.iterations.back().feasible, st.iterations.back().checks);
    write_history();
  }
  if (stopping()) stop_reason = "interrupted";
  if (st.bad_input) stop_reason = "input_refused";
  write_history();
  std::cout << "\n"
            << sweep::search_report(s.search, st.iterations, planner, stop_reason,
                                    o.confidence_level)
            << "Search history: " << (root / kSearchHistoryFileName).string() << "\n";
  if (stop_reason == "interrupted") return kExitSignal;
  if (st.bad_input) return kExitBadConfig;
  return st.any_failed ? kExitRunFailed : kExitOk;
}

}  // namespace inferperf::app
