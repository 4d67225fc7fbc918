#include "app/profile/orchestrator.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <variant>

#include "app/exit_codes.hpp"
#include "app/logging.hpp"
#include "app/profile/child_runs.hpp"
#include "app/profile/run_info.hpp"
#include "artifacts/export_names.hpp"
#include "artifacts/run_folder.hpp"
#include "config/cli.hpp"
#include "core/uuid.hpp"
#include "report/console_table.hpp"
#include "report/format.hpp"
#include "sweep/confidence.hpp"
#include "sweep/points.hpp"
#include "sweep/recipe_post.hpp"
#include "sweep/search.hpp"
#include "sweep/summary.hpp"
#include "sweep/sweep_aggregate.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

std::string aggregate_table(const nlohmann::ordered_json& agg, const std::string& title) {
  std::vector<std::vector<std::string>> rows;
  const auto num = [](const nlohmann::ordered_json& v) {
    return v.is_number() ? report::with_thousands(v.get<double>()) : std::string("N/A");
  };
  static const std::vector<std::string> kShown = {
      "time_to_first_token", "inter_token_latency",     "request_latency",
      "request_throughput",  "output_token_throughput", "output_token_throughput_per_user"};
  for (const auto& tag : kShown) {
    const auto it = agg["metrics"].find(tag + "_avg");
    if (it == agg["metrics"].end()) continue;
    const auto& m = *it;
    rows.push_back({fmt::format("{} avg ({})", tag, m["unit"].get<std::string>()), num(m["mean"]),
                    num(m["std"]), num(m["min"]), num(m["max"]), num(m["ci_low"]),
                    num(m["ci_high"])});
  }
  return report::render_table(title, {"Metric", "mean", "std", "min", "max", "ci low", "ci high"},
                              rows, 1);
}

// Where a run and the aggregates go (AIPerf 0.11's layout, docs/sweeps.md): without a sweep
// <root>/profile_runs/run_NNNN; a sweep with one trial <root>/<point>; with several trials
// <root>/profile_runs/trial_NNNN/<point> (repeated) or <root>/<point>/profile_runs/trial_NNNN
// (independent).
struct Layout {
  fs::path root;
  bool sweep = false;
  int trials = 1;
  bool independent = false;

  fs::path run_dir(const sweep::SweepPoint& point, int trial) const {
    if (!sweep) return root / artifacts::kProfileRunsFolderName / sweep::run_folder(trial);
    if (trials == 1) return root / point.folder;
    if (independent)
      return root / point.folder / artifacts::kProfileRunsFolderName / sweep::trial_folder(trial);
    return root / artifacts::kProfileRunsFolderName / sweep::trial_folder(trial) / point.folder;
  }
  std::string run_label(int trial) const {
    return sweep ? sweep::trial_folder(trial) : sweep::run_folder(trial);
  }
  fs::path aggregate_dir(const sweep::SweepPoint& point) const {
    if (!sweep) return root / artifacts::kAggregateFolderName;
    if (independent && trials > 1) return root / point.folder / artifacts::kAggregateFolderName;
    return root / artifacts::kAggregateFolderName / point.folder;
  }
  fs::path sweep_aggregate_dir() const {
    if (!independent && trials > 1)
      return root / artifacts::kAggregateFolderName / kSweepAggregateFolder;
    return root / kSweepAggregateFolder;
  }
  static constexpr const char* kSweepAggregateFolder = "sweep_aggregate";
};

// One run of the plan: which point, which trial, in the order they run.
struct PlannedRun {
  int point = 0;  // index into the points (the variation index)
  int trial = 1;  // 1-based
};

// Repeated: every trial runs all points before the next trial; independent: each point runs all
// its trials before the next point.
std::vector<PlannedRun> run_order(int points, int trials, bool independent) {
  std::vector<PlannedRun> out;
  for (int outer = 0; outer < (independent ? points : trials); ++outer)
    for (int inner = 0; inner < (independent ? trials : points); ++inner)
      out.push_back(independent ? PlannedRun{outer, inner + 1} : PlannedRun{inner, outer + 1});
  return out;
}

sweep::RunArgs planned_args(const sweep::SweepOptions& o, const Layout& layout,
                            const sweep::SweepPoint& point, const PlannedRun& pr,
                            std::optional<std::string> salt) {
  sweep::RunArgs ra;
  ra.point_values = point.values;
  ra.artifact_dir = layout.run_dir(point, pr.trial).string();
  ra.cache_salt = std::move(salt);
  ra.random_seed = run_seed(o, layout.sweep, pr.point, pr.trial, point.variation_label);
  ra.no_warmup = o.num_profile_runs > 1 && pr.trial > 1 && o.disable_warmup_after_first;
  return ra;
}

void print_dry_run(const sweep::SweepArgs& s, const std::vector<sweep::SweepPoint>& points,
                   const Layout& layout) {
  const auto& o = s.options;
  std::cout << fmt::format(
      "dry run: {} point(s) x {} run(s), every command line valid; nothing was sent\n"
      "root: {}\n",
      points.size(), o.num_profile_runs, layout.root.string());
  for (const auto& pr :
       run_order(static_cast<int>(points.size()), o.num_profile_runs, layout.independent)) {
    const auto salt =
        o.cache_salt_per_run ? std::optional<std::string>("<fresh salt>") : std::nullopt;
    const auto ra = planned_args(o, layout, points[pr.point], pr, salt);
    std::cout << config::build_cli_command(sweep::child_args(s, ra)) << "\n";
  }
}

}  // namespace

bool cache_salt_given_twice(const config::RunConfig& c) {
  return std::count_if(c.input.extra.begin(), c.input.extra.end(),
                       [](const auto& kv) { return kv.first == "cache_salt"; }) > 1;
}

std::string self_executable() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("inferperf") : p.string();
}

bool auto_plot(const fs::path& folder, const fs::path& output) {
  spdlog::info("--auto-plot: inferperf plot {}", folder.string());
  std::vector<std::string> args = {"plot", folder.string()};
  if (!output.empty()) args.insert(args.end(), {"--output", output.string()});
  const int rc = spawn_and_wait(self_executable(), args);
  if (rc != 0) {
    spdlog::warn("--auto-plot: inferperf plot {} failed (exit code {}); the results are kept",
                 folder.string(), rc);
    return false;
  }
  return true;
}

namespace {

// What the runs came to, per point (in point order).
struct Executed {
  std::vector<sweep::PointResult> points;
  bool any_failed = false;
  bool bad_input = false;
};

// What a run is within the plan, for its run_info (AIPerf 0.11): handed to the child process in
// INFERPERF_RUN_INFO (app/profile/run_info.hpp).
std::string run_identity_env(const sweep::SweepArgs& s, const Layout& layout, const PlannedRun& pr,
                             const sweep::SweepPoint& point, const std::string& sweep_id) {
  nlohmann::ordered_json info;
  if (layout.sweep) info["sweep_id"] = sweep_id;
  info["trial"] = pr.trial - 1;
  info["run_label"] = sweep::run_folder(pr.trial);
  info["variation_label"] = layout.sweep ? point.variation_label : "base";
  info["variation_index"] = pr.point;
  info["variation_values"] =
      layout.sweep ? sweep::variation_values(s.params, point) : nlohmann::ordered_json::object();
  return std::string(kRunInfoEnv) + "=" + info.dump();
}

// After a point's latest run: whether its --convergence-metric has converged (then its remaining
// runs are skipped).
void check_point_convergence(const sweep::SweepOptions& o, const artifacts::ExportNames& names,
                             const std::string& where, sweep::PointResult& point) {
  const auto per_request = [&](const sweep::RunResult& r, const std::string& tag) {
    auto v = read_run_values(r, names, &tag);
    return v.metrics.empty() ? std::vector<double>{} : std::move(v.metrics.front().second);
  };
  point.convergence =
      sweep::check_convergence(o.convergence, point.runs, o.confidence_level, per_request);
  const auto& c = *point.convergence;
  if (c.converged)
    spdlog::info("{}: {} converged after {} run(s) ({}); no more runs of it", where,
                 *o.convergence.metric, c.runs, c.detail);
  else
    spdlog::info("{}: {} not converged yet ({})", where, *o.convergence.metric, c.detail);
}

Executed execute_runs(const sweep::SweepArgs& s, const std::vector<sweep::SweepPoint>& points,
                      const Layout& layout, const artifacts::ExportNames& names) {
  const auto& o = s.options;
  const std::string sweep_id = core::uuid4();
  const std::string exe = self_executable();
  const int total_points = static_cast<int>(points.size());
  Executed ex;
  for (const auto& p : points) ex.points.push_back({p, {}});
  const auto order = run_order(total_points, o.num_profile_runs, layout.independent);
  std::optional<PlannedRun> prev;  // the last run started
  for (std::size_t k = 0; k < order.size() && !stopping() && !ex.bad_input; ++k) {
    const PlannedRun& pr = order[k];
    // --convergence-*: a point that has converged runs no more trials.
    if (const auto& c = ex.points[pr.point].convergence; c && c->converged) continue;
    if (prev) {
      // Where a new trial starts (repeated: trial-major; independent: within a point) the
      // profile-run cooldown, else the sweep cooldown between points.
      const bool new_trial = layout.independent ? prev->point == pr.point : prev->trial != pr.trial;
      cooldown(new_trial ? o.profile_run_cooldown_s : o.sweep_cooldown_s,
               new_trial ? "profile run" : "sweep");
      if (stopping()) break;
    }
    prev = pr;
    const auto& point = points[pr.point];
    const auto salt = o.cache_salt_per_run ? std::optional(sweep::random_cache_salt())
                                           : std::optional<std::string>();
    const sweep::RunArgs ra = planned_args(o, layout, point, pr, salt);
    std::string where = point.label.empty() ? ""
                                            : fmt::format("point {}/{} {}", pr.point + 1,
                                                          total_points, point.label);
    if (o.num_profile_runs > 1)
      where += fmt::format("{}run {}/{}", where.empty() ? "" : ", ", pr.trial, o.num_profile_runs);
    spdlog::info("{} -> {}{}{}", where, ra.artifact_dir,
                 ra.cache_salt ? " (cache_salt " + *ra.cache_salt + ")" : "",
                 ra.random_seed ? " (seed " + *ra.random_seed + ")" : "");
    const int rc = spawn_and_wait(exe, sweep::child_args(s, ra),
                                  {run_identity_env(s, layout, pr, point, sweep_id)});
    auto r = read_run(layout.run_label(pr.trial), ra.artifact_dir, names, rc);
    if (!r.ok) {
      ex.any_failed = true;
      spdlog::error("{}: {}", where, r.error);
    }
    ex.points[pr.point].runs.push_back(std::move(r));
    if (o.convergence.enabled()) check_point_convergence(o, names, where, ex.points[pr.point]);
    if (rc == kExitSignal) note_child_stopped();  // the child was stopped: so is the rest
    if (rc == kExitBadConfig) {
      // Its input was refused before anything was sent (a tokenizer, a dataset file, the
      // folder): every later run shares that command line, so none is started.
      ex.bad_input = true;
      spdlog::error("{}: its input was refused; the remaining runs are not started", where);
    }
  }
  return ex;
}

// The per-point aggregates (every point that ran) and, for a sweep, the sweep aggregate and
// inferperf's sweep summary.
// With --convergence-* and per-request exports: every run's per-request values pooled, beside
// the point's aggregate.
void write_collated(const sweep::SweepOptions& o, const artifacts::ExportNames& names,
                    const sweep::PointResult& pr, const fs::path& dir) {
  std::vector<sweep::RunValues> runs;
  nlohmann::ordered_json labels = nlohmann::ordered_json::array();
  for (const auto& r : pr.runs) {
    if (!r.ok) continue;
    runs.push_back(read_run_values(r, names));
    labels.push_back(r.label);
  }
  nlohmann::ordered_json meta;
  meta["num_profile_runs"] = o.num_profile_runs;
  meta["num_successful_runs"] = runs.size();
  meta["run_labels"] = std::move(labels);
  if (pr.convergence) meta["convergence"] = sweep::convergence_json(o.convergence, *pr.convergence);
  write_or_warn(dir / artifacts::kCollatedJsonFileName,
                sweep::collated_json(runs, meta).dump(2) + "\n");
}

// A grid recipe's derived file (knee, curve, surface, frontier, SLA breach) in the sweep
// aggregate folder, or post_process_errors.json saying why it could not be made.
void write_recipe_post(const sweep::SweepArgs& s, const fs::path& sdir,
                       const std::vector<sweep::PointResult>& ran) {
  const sweep::RecipePost& post = *s.post;
  auto result = sweep::recipe_post_json(post, s.params, ran, s.search.filters);
  if (!result) {
    spdlog::warn("--search-recipe {}: {}", s.search.recipe.value_or(""), result.error().message);
    nlohmann::ordered_json errors = nlohmann::ordered_json::array();
    errors.push_back({{"handler", post.handler},
                      {"output_filename", post.file},
                      {"error", result.error().message}});
    write_or_warn(sdir / "post_process_errors.json", errors.dump(2) + "\n");
    return;
  }
  write_or_warn(sdir / post.file, result->dump(2) + "\n");
  std::cout << "\n"
            << sweep::recipe_post_line(post, *result) << "\n"
            << "Recipe output: " << (sdir / post.file).string() << "\n";
}

void write_aggregates(const sweep::SweepArgs& s, const Layout& layout, const Executed& ex,
                      const config::RunConfig& first, const artifacts::ExportNames& names) {
  const auto& o = s.options;
  std::vector<sweep::VariationResult> variations;
  for (const auto& pr : ex.points) {
    if (pr.runs.empty()) continue;
    sweep::AggregateMeta meta{o.num_profile_runs, o.confidence_level, o.profile_run_cooldown_s,
                              nlohmann::ordered_json::object()};
    if (layout.sweep) {
      meta.extra["variation_label"] = pr.point.variation_label;
      meta.extra["variation_values"] = sweep::variation_values(s.params, pr.point);
      meta.extra["sweep_mode"] = o.sweep_mode;
      meta.extra["model"] =
          first.endpoint.model_names.empty() ? "" : first.endpoint.model_names.front();
    }
    if (pr.convergence)
      meta.extra["convergence"] = sweep::convergence_json(o.convergence, *pr.convergence);
    sweep::Aggregate agg = sweep::aggregate_runs(pr.runs, meta);
    const fs::path dir = layout.aggregate_dir(pr.point);
    std::error_code ec;
    fs::create_directories(dir, ec);
    const auto json = sweep::aggregate_json(agg);
    write_or_warn(dir / artifacts::kAggregateJsonFileName, json.dump(2) + "\n");
    write_or_warn(dir / artifacts::kAggregateCsvFileName, sweep::aggregate_csv(agg));
    if (o.convergence.enabled() && first.output.export_level != config::ExportLevel::kSummary)
      write_collated(o, names, pr, dir);
    if (o.num_profile_runs > 1) {
      std::cout << "\n"
                << aggregate_table(json,
                                   fmt::format("inferperf | {} runs{}{}", pr.runs.size(),
                                               pr.point.label.empty() ? "" : " | ", pr.point.label))
                << fmt::format("confidence level {}; aggregate: {}\n", o.confidence_level,
                               dir.string());
    }
    variations.push_back({pr.point, pr.runs, std::move(agg)});
  }
  if (!layout.sweep || variations.empty()) return;
  const fs::path sdir = layout.sweep_aggregate_dir();
  std::error_code ec;
  fs::create_directories(sdir, ec);
  auto sweep_json = sweep::sweep_aggregate_json(s.params, variations, o);
  if (!s.search.filters.empty())
    sweep_json["metadata"]["sla_constraints"] = sweep::sla_constraints_json(s.search.filters);
  write_or_warn(sdir / "profile_export_aiperf_sweep.json", sweep_json.dump(2) + "\n");
  write_or_warn(sdir / "profile_export_aiperf_sweep.csv", sweep::sweep_aggregate_csv(sweep_json));
  if (s.design_file) write_or_warn(sdir / "sampling_design.json", *s.design_file);

  std::vector<sweep::PointResult> ran;
  for (const auto& pr : ex.points)
    if (!pr.runs.empty()) ran.push_back(pr);
  const fs::path& root = layout.root;
  auto summary = sweep::sweep_summary_json(s.params, ran, o);
  if (!s.search.filters.empty()) sweep::add_sla_to_summary(summary, ran, s.search.filters);
  write_or_warn(root / artifacts::kSweepSummaryJsonFileName, summary.dump(2) + "\n");
  write_or_warn(root / artifacts::kSweepSummaryCsvFileName, sweep::sweep_summary_csv(summary));
  std::cout << "\n" << sweep::sweep_summary_table(summary);
  std::cout << "Sweep Summary JSON: " << (root / artifacts::kSweepSummaryJsonFileName).string()
            << "\n"
            << "Sweep Summary CSV: " << (root / artifacts::kSweepSummaryCsvFileName).string()
            << "\n"
            << "Sweep aggregate: " << (sdir / "profile_export_aiperf_sweep.json").string() << "\n";
  if (!s.search.filters.empty())
    std::cout << "\n" << sweep::sweep_sla_report(s.params, ran, s.search.filters);
  if (s.post) write_recipe_post(s, sdir, ran);
}

}  // namespace

int run_orchestrated(const sweep::SweepArgs& typed, const std::vector<std::string>& original) {
  if (typed.search.enabled()) return run_search(typed, original);
  const auto& o = typed.options;
  auto expanded = sweep::expand_points(typed);
  if (!expanded) {
    std::cerr << "error: " << expanded.error().message << "\n";
    return kExitBadConfig;
  }
  const auto& points = *expanded;
  auto checked = check_points(typed, points);
  if (const int* rc = std::get_if<int>(&checked)) return *rc;
  const auto& configs = std::get<std::vector<config::RunConfig>>(checked);
  const config::RunConfig& first = configs.front();
  if (o.convergence.enabled() && o.convergence.mode == "distribution" &&
      first.output.export_level == config::ExportLevel::kSummary) {
    std::cerr << "error: --convergence-mode distribution compares per-request values, which "
                 "--export-level summary does not write; use records or raw\n";
    return kExitBadConfig;
  }
  // What every child gets: the typed words plus what the plan adds to all of them.
  sweep::SweepArgs s = typed;
  sweep::pin_warmup_concurrency(s, first);  // shown by --dry-run's command lines
  Layout layout;
  layout.root = o.artifact_dir
                    ? fs::path(*o.artifact_dir)
                    : fs::path(first.output.artifact_dir) / orchestrated_leaf(first, s.params);
  layout.sweep = !s.params.empty();
  layout.trials = o.num_profile_runs;
  layout.independent = o.sweep_mode == "independent";
  if (o.dry_run) {
    print_dry_run(s, points, layout);
    return kExitOk;
  }
  init_console_logging(config::to_string(first.log_level));
  std::error_code ec;
  fs::create_directories(layout.root / artifacts::kLogsFolderName, ec);
  if (ec) {
    std::cerr << "error: cannot create artifact folder " << layout.root << ": " << ec.message()
              << "\n";
    return kExitBadConfig;
  }
  add_log_file(layout.root / artifacts::kLogsFolderName / artifacts::kLogFileName);
  spdlog::info("{}", config::build_cli_command(original));

  const artifacts::ExportNames names = artifacts::export_names(first.output.export_prefix);
  SignalScope signals;
  const Executed ex = execute_runs(s, points, layout, names);
  write_aggregates(s, layout, ex, first, names);
  const bool interrupted = stopping();
  if (interrupted) {
    spdlog::warn("stopped by a signal; the summaries cover what ran");
  }
  bool plot_failed = false;
  if (o.auto_plot && !interrupted && !ex.bad_input)
    plot_failed = !auto_plot(layout.root, layout.root / "plots");
  if (interrupted) return kExitSignal;
  if (ex.bad_input) return kExitBadConfig;
  // --plot-required: a failed plot fails the command (AIPerf 0.11).
  return ex.any_failed || (plot_failed && o.plot_required) ? kExitRunFailed : kExitOk;
}

}  // namespace inferperf::app
