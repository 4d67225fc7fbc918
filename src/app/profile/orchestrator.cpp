#include "app/profile/orchestrator.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include "app/exit_codes.hpp"
#include "app/logging.hpp"
#include "app/profile/phase_plans.hpp"
#include "app/results.hpp"
#include "artifacts/export_names.hpp"
#include "artifacts/run_folder.hpp"
#include "config/cli.hpp"
#include "core/child_process.hpp"
#include "core/file_names.hpp"
#include "core/secrets.hpp"
#include "report/console_table.hpp"
#include "report/exporters.hpp"
#include "report/format.hpp"
#include "sweep/confidence.hpp"
#include "sweep/points.hpp"
#include "sweep/summary.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

std::atomic<pid_t> g_child{0};
std::atomic<int> g_signals{0};

// A signal typed at the terminal reaches the whole foreground process group, the running child
// included, which then stops itself gracefully: forwarding it as well would count as a second
// Ctrl-C and cancel the child's requests in flight. A signal sent by a process (kill, a job
// manager) reaches the orchestrator alone and is passed on.
void on_signal(int sig, siginfo_t* info, void*) {
  g_signals.fetch_add(1);
  const pid_t child = g_child.load();
  const bool from_process =
      info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
  if (child > 0 && from_process) kill(child, sig);
}

class SignalScope {
 public:
  SignalScope() {
    struct sigaction sa {};
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~SignalScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

bool stopping() {
  return g_signals.load() > 0;
}

// Sleeps `seconds`, waking early when a signal asks the orchestrator to stop.
void cooldown(double seconds, const char* what) {
  if (seconds <= 0 || stopping()) return;
  spdlog::info("{} cooldown: {:.1f} s", what, seconds);
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!stopping() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// Runs `exe args...` (argv[0] "inferperf") in this terminal and waits; the exit code, or 128 +
// the signal that ended it; -1 when it could not be started. The child's pid is published for
// the signal handler while it runs.
int spawn_and_wait(const std::string& exe, const std::vector<std::string>& args) {
  std::vector<std::string> words = {exe};
  words.insert(words.end(), args.begin(), args.end());
  core::ChildOptions o;
  o.on_start = [](pid_t pid) { g_child.store(pid); };
  o.on_end = [] { g_child.store(0); };
  return core::run_child(words, o);
}

std::string orchestrated_leaf(const config::RunConfig& c,
                              const std::vector<sweep::SweepParam>& params) {
  if (params.empty() && !c.endpoint.model_names.empty()) return artifact_leaf(c);
  std::string model;
  if (!c.endpoint.model_names.empty()) {
    model = c.endpoint.model_names.front();
    if (c.endpoint.model_names.size() > 1) model += "_multi";
    model = core::safe_file_name(model, 128) + "-";
  }
  std::string rest = fmt::format("openai-{}-", config::to_string(c.endpoint.type));
  if (params.empty()) return model + rest + "runs";
  rest += "sweep";
  for (const auto& p : params) rest += "-" + p.name;
  return model + core::safe_file_name(rest);
}

sweep::RunResult read_run(const std::string& label, const fs::path& dir,
                          const artifacts::ExportNames& names, int exit_code) {
  sweep::RunResult r;
  r.label = label;
  const fs::path file = dir / names.summary_json;
  std::ifstream in(file);
  if (in) {
    auto j = nlohmann::ordered_json::parse(in, nullptr, false);
    if (!j.is_discarded() && j.is_object()) r.summary = std::move(j);
  }
  const bool exported = r.summary.is_object() && !r.summary.empty();
  // 130: stopped by a signal after exporting what it had measured.
  r.ok = exported && (exit_code == 0 || exit_code == kExitSignal);
  if (!r.ok) {
    r.error = exit_code < 0 ? "could not start the run"
              : !exported   ? fmt::format("exited with code {} and wrote no {}", exit_code,
                                          names.summary_json)
                            : fmt::format("exited with code {}", exit_code);
  }
  return r;
}

void write_or_warn(const fs::path& file, const std::string& content) {
  if (auto w = report::write_atomically(file, content); !w)
    spdlog::error("cannot write {}: {}", file.string(), w.error().message);
}

std::string aggregate_table(const nlohmann::ordered_json& agg, const std::string& title) {
  std::vector<std::vector<std::string>> rows;
  const auto num = [](const nlohmann::ordered_json& v) {
    return v.is_number() ? report::with_thousands(v.get<double>()) : std::string("N/A");
  };
  static const std::vector<std::string> kShown = {
      "time_to_first_token", "inter_token_latency",     "request_latency",
      "request_throughput",  "output_token_throughput", "output_token_throughput_per_user"};
  for (const auto& tag : kShown) {
    const auto it = agg["metrics"].find(tag);
    if (it == agg["metrics"].end()) continue;
    const auto& m = *it;
    rows.push_back({fmt::format("{} ({})", tag, m["unit"].get<std::string>()), num(m["mean"]),
                    num(m["std"]), num(m["min"]), num(m["max"]), num(m["ci_low"]),
                    num(m["ci_high"])});
  }
  return report::render_table(title, {"Metric", "mean", "std", "min", "max", "ci low", "ci high"},
                              rows, 1);
}

fs::path run_dir(const fs::path& root, const sweep::SweepPoint& point, int runs, int run) {
  const fs::path point_dir = point.folder.empty() ? root : root / point.folder;
  return runs > 1 ? point_dir / artifacts::kProfileRunsFolderName / sweep::run_folder(run)
                  : point_dir;
}

void print_dry_run(const sweep::SweepArgs& s, const std::vector<sweep::SweepPoint>& points,
                   const fs::path& root) {
  const auto& o = s.options;
  std::cout << fmt::format(
      "dry run: {} point(s) x {} run(s), every command line valid; nothing was sent\n"
      "root: {}\n",
      points.size(), o.num_profile_runs, root.string());
  for (const auto& p : points) {
    for (int run = 1; run <= o.num_profile_runs; ++run) {
      sweep::RunArgs ra{
          p.values, run_dir(root, p, o.num_profile_runs, run).string(),
          o.cache_salt_per_run ? std::optional<std::string>("<fresh salt>") : std::nullopt,
          o.random_seed, o.num_profile_runs > 1 && run > 1 && o.disable_warmup_after_first};
      std::cout << config::build_cli_command(sweep::child_args(s, ra)) << "\n";
    }
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

bool auto_plot(const fs::path& folder) {
  spdlog::info("--auto-plot: inferperf plot {}", folder.string());
  const int rc = spawn_and_wait(self_executable(), {"plot", folder.string()});
  if (rc != 0) {
    spdlog::warn("--auto-plot: inferperf plot {} failed (exit code {}); the results are kept",
                 folder.string(), rc);
    return false;
  }
  return true;
}

int run_orchestrated(const sweep::SweepArgs& s, const std::vector<std::string>& original) {
  const auto& o = s.options;
  auto expanded = sweep::expand_points(s.params, o.sweep_type);
  if (!expanded) {
    std::cerr << "error: " << expanded.error().message << "\n";
    return kExitBadConfig;
  }
  const auto& points = *expanded;

  // Every point's command line is checked before anything is sent.
  std::vector<config::RunConfig> configs;
  std::string errors;
  for (const auto& p : points) {
    sweep::RunArgs probe{p.values, o.artifact_dir.value_or(""),
                         o.cache_salt_per_run ? std::optional<std::string>("0") : std::nullopt,
                         o.random_seed, false};
    auto outcome = config::parse_command_line(sweep::child_args(s, probe));
    if (outcome.action != config::CliOutcome::Action::kProfile) {
      if (outcome.exit_code == 0) {  // --help: nothing to run
        std::cout << outcome.message;
        return 0;
      }
      std::string msg = core::redact_urls(outcome.message);
      errors += p.label.empty() ? msg : "at " + p.label + ":\n" + msg;
      continue;
    }
    if (const std::string e = goodput_problem(outcome.config); !e.empty()) {
      const std::string msg = "error: " + core::redact_urls(e) + "\n";
      errors += p.label.empty() ? msg : "at " + p.label + ":\n" + msg;
      continue;
    }
    configs.push_back(std::move(outcome.config));
  }
  if (!errors.empty()) {
    std::cerr << errors;
    return kExitBadConfig;
  }
  if (o.cache_salt_per_run && cache_salt_given_twice(configs.front())) {
    std::cerr << kCacheSaltTwice;
    return kExitBadConfig;
  }
  const config::RunConfig& first = configs.front();
  const fs::path root =
      o.artifact_dir ? fs::path(*o.artifact_dir)
                     : fs::path(first.output.artifact_dir) / orchestrated_leaf(first, s.params);
  if (o.dry_run) {
    print_dry_run(s, points, root);
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

  // One seed for every run unless told otherwise, so repeated runs differ only in time.
  std::optional<std::uint64_t> seed;
  if (o.random_seed) seed = std::stoull(*o.random_seed);
  if (!seed && o.consistent_seed) {
    seed = std::random_device{}() & 0x7fffffffU;
    spdlog::info("--set-consistent-seed: every run uses --random-seed {}", *seed);
  }

  const artifacts::ExportNames names = artifacts::export_names(first.output.export_prefix);
  const std::string exe = self_executable();
  const int total_points = static_cast<int>(points.size());
  std::vector<sweep::PointResult> results;
  bool any_failed = false;
  SignalScope signals;
  bool bad_input = false;
  for (int pi = 0; pi < total_points && !stopping() && !bad_input; ++pi) {
    if (pi > 0) cooldown(o.sweep_cooldown_s, "sweep");
    const auto& point = points[pi];
    const fs::path point_dir = point.folder.empty() ? root : root / point.folder;
    sweep::PointResult pr{point, {}};
    for (int run = 1; run <= o.num_profile_runs && !stopping(); ++run) {
      if (run > 1) cooldown(o.profile_run_cooldown_s, "profile run");
      if (stopping()) break;
      const bool repeated = o.num_profile_runs > 1;
      const fs::path dir = run_dir(root, point, o.num_profile_runs, run);
      sweep::RunArgs ra;
      ra.point_values = point.values;
      ra.artifact_dir = dir.string();
      if (o.cache_salt_per_run) ra.cache_salt = sweep::random_cache_salt();
      if (seed) ra.random_seed = std::to_string(o.consistent_seed ? *seed : *seed + run - 1);
      ra.no_warmup = repeated && run > 1 && o.disable_warmup_after_first;
      std::string where = point.label.empty()
                              ? ""
                              : fmt::format("point {}/{} {}", pi + 1, total_points, point.label);
      if (repeated)
        where += fmt::format("{}run {}/{}", where.empty() ? "" : ", ", run, o.num_profile_runs);
      spdlog::info("{} -> {}{}", where, dir.string(),
                   ra.cache_salt ? " (cache_salt " + *ra.cache_salt + ")" : "");
      const int rc = spawn_and_wait(exe, sweep::child_args(s, ra));
      auto r = read_run(repeated ? sweep::run_folder(run) : "run_0001", dir, names, rc);
      if (!r.ok) {
        any_failed = true;
        spdlog::error("{}: {}", where, r.error);
      }
      pr.runs.push_back(std::move(r));
      if (rc == kExitSignal) g_signals.fetch_add(1);  // the child was stopped: so is the rest
      if (rc == kExitBadConfig) {
        // Its input was refused before anything was sent (a tokenizer, a dataset file, the
        // folder): every later run shares that command line, so none is started.
        bad_input = true;
        spdlog::error("{}: its input was refused; the remaining runs are not started", where);
        break;
      }
    }
    if (o.num_profile_runs > 1 && !pr.runs.empty()) {
      sweep::AggregateMeta meta{o.num_profile_runs, o.confidence_level, o.profile_run_cooldown_s};
      const auto agg = sweep::aggregate_json(pr.runs, meta);
      fs::create_directories(point_dir / artifacts::kAggregateFolderName, ec);
      write_or_warn(point_dir / artifacts::kAggregateFolderName / artifacts::kAggregateJsonFileName,
                    agg.dump(2) + "\n");
      write_or_warn(point_dir / artifacts::kAggregateFolderName / artifacts::kAggregateCsvFileName,
                    sweep::aggregate_csv(agg));
      std::cout << "\n"
                << aggregate_table(agg, fmt::format("inferperf | {} runs{}{}", pr.runs.size(),
                                                    point.label.empty() ? "" : " | ", point.label))
                << fmt::format("confidence level {}; aggregate: {}\n", o.confidence_level,
                               (point_dir / artifacts::kAggregateFolderName).string());
    }
    results.push_back(std::move(pr));
  }
  if (!s.params.empty() && !results.empty()) {
    const auto summary = sweep::sweep_summary_json(s.params, results, o);
    write_or_warn(root / artifacts::kSweepSummaryJsonFileName, summary.dump(2) + "\n");
    write_or_warn(root / artifacts::kSweepSummaryCsvFileName, sweep::sweep_summary_csv(summary));
    std::cout << "\n" << sweep::sweep_summary_table(summary);
    std::cout << "Sweep Summary JSON: " << (root / artifacts::kSweepSummaryJsonFileName).string()
              << "\n"
              << "Sweep Summary CSV: " << (root / artifacts::kSweepSummaryCsvFileName).string()
              << "\n";
  }
  const bool interrupted = stopping();
  if (interrupted) {
    spdlog::warn("stopped by a signal after {} of {} point(s); the summaries cover what ran",
                 results.size(), total_points);
  }
  if (o.auto_plot && !interrupted && !bad_input) auto_plot(root);
  if (interrupted) return kExitSignal;
  if (bad_input) return kExitBadConfig;
  return any_failed ? kExitRunFailed : kExitOk;
}

}  // namespace inferperf::app
