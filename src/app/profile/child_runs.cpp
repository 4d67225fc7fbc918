#include "app/profile/child_runs.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "app/exit_codes.hpp"
#include "app/profile/orchestrator.hpp"
#include "app/profile/phase_plans.hpp"
#include "app/results.hpp"
#include "config/cli.hpp"
#include "core/child_process.hpp"
#include "core/file_names.hpp"
#include "core/secrets.hpp"
#include "report/exporters.hpp"
#include "sweep/trial_seed.hpp"

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

}  // namespace

SignalScope::SignalScope() {
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

SignalScope::~SignalScope() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

bool stopping() {
  return g_signals.load() > 0;
}

void cooldown(double seconds, const char* what) {
  if (seconds <= 0 || stopping()) return;
  spdlog::info("{} cooldown: {:.1f} s", what, seconds);
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!stopping() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

int spawn_and_wait(const std::string& exe, const std::vector<std::string>& args,
                   std::vector<std::string> env) {
  std::vector<std::string> words = {exe};
  words.insert(words.end(), args.begin(), args.end());
  core::ChildOptions o;
  o.extra_env = std::move(env);
  o.on_start = [](pid_t pid) { g_child.store(pid); };
  o.on_end = [] { g_child.store(0); };
  return core::run_child(words, o);
}

std::string orchestrated_leaf(const config::RunConfig& c,
                              const std::vector<sweep::SweepParam>& params, std::string_view kind) {
  if (params.empty() && !c.endpoint.model_names.empty()) return artifact_leaf(c);
  std::string model;
  if (!c.endpoint.model_names.empty()) {
    model = c.endpoint.model_names.front();
    if (c.endpoint.model_names.size() > 1) model += "_multi";
    model = core::safe_file_name(model, 128) + "-";
  }
  std::string rest = fmt::format("openai-{}-", config::to_string(c.endpoint.type));
  if (params.empty()) return model + rest + "runs";
  rest += kind;
  for (const auto& p : params) rest += "-" + p.name;
  return model + core::safe_file_name(rest);
}

sweep::RunResult read_run(const std::string& label, const fs::path& dir,
                          const artifacts::ExportNames& names, int exit_code) {
  sweep::RunResult r;
  r.label = label;
  r.dir = dir.string();
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

sweep::RunValues read_run_values(const sweep::RunResult& run, const artifacts::ExportNames& names,
                                 const std::string* only) {
  sweep::RunValues out;
  out.label = run.label;
  std::ifstream in(fs::path(run.dir) / names.records_jsonl);
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> by_tag;
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    const auto m = j.find("metrics");
    if (m == j.end() || !m->is_object()) continue;
    for (const auto& [tag, v] : m->items()) {
      if (only && tag != *only) continue;
      const auto value = v.find("value");
      if (!v.is_object() || value == v.end() || !value->is_number()) continue;
      auto [it, added] = by_tag.try_emplace(tag);
      if (added) order.push_back(tag);
      it->second.push_back(value->get<double>());
    }
  }
  for (const auto& tag : order) out.metrics.emplace_back(tag, std::move(by_tag[tag]));
  return out;
}

void write_or_warn(const fs::path& file, const std::string& content) {
  if (auto w = report::write_atomically(file, content); !w)
    spdlog::error("cannot write {}: {}", file.string(), w.error().message);
}

void note_child_stopped() {
  g_signals.fetch_add(1);
}

std::optional<std::string> run_seed(const sweep::SweepOptions& o, bool sweep, int point, int trial,
                                    const std::string& variation_label) {
  std::optional<std::uint64_t> seed;
  if (o.random_seed) seed = std::stoull(*o.random_seed);
  if (!seed && o.consistent_seed) seed = 42;
  if (!seed) return std::nullopt;
  if (o.vary_seed_per_trial)
    return std::to_string(sweep::trial_seed(*seed, sweep ? variation_label : "base", trial - 1));
  std::uint64_t v = *seed;
  if (sweep && !o.sweep_same_seed) v += static_cast<std::uint64_t>(point);
  if (!o.consistent_seed) v += static_cast<std::uint64_t>(trial - 1);
  return std::to_string(v);
}

namespace {

// A sweep replays nothing on a fixed schedule (AIPerf 0.11 refuses magic lists there).
constexpr const char* kSweepOnFixedSchedule =
    "error: a comma list (a sweep) cannot run on a fixed schedule (--fixed-schedule): each point "
    "would replay the same timestamps; give one value per flag, or drive the trace by concurrency "
    "or rate with --no-fixed-schedule\n";

// Every run is its own process writing to this terminal one after the other (AIPerf 0.11 refuses
// an explicit dashboard with any sweep).
constexpr const char* kDashboardWithManyRuns =
    "error: --ui-type dashboard cannot be used with a sweep (a comma list) or repeated runs "
    "(--num-profile-runs above 1); give --ui-type simple or none, or leave --ui-type out\n";

// Which points check_points parses: all up to kCheckAll, else the first kCheckAll and, per axis,
// a point with its smallest and one with its largest value (in point order).
std::vector<std::size_t> points_to_check(const std::vector<sweep::SweepPoint>& points) {
  constexpr std::size_t kCheckAll = 512;
  std::set<std::size_t> chosen;
  for (std::size_t i = 0; i < points.size() && i < kCheckAll; ++i) chosen.insert(i);
  if (points.size() > kCheckAll && !points.front().values.empty()) {
    for (std::size_t k = 0; k < points.front().values.size(); ++k) {
      std::size_t lo = 0, hi = 0;
      const auto at = [&](std::size_t i) {
        return std::strtod(points[i].values[k].c_str(), nullptr);
      };
      for (std::size_t i = 1; i < points.size(); ++i) {
        if (points[i].values[k].empty()) continue;
        if (points[lo].values[k].empty() || at(i) < at(lo)) lo = i;
        if (points[hi].values[k].empty() || at(i) > at(hi)) hi = i;
      }
      chosen.insert(lo);
      chosen.insert(hi);
    }
  }
  return {chosen.begin(), chosen.end()};
}

}  // namespace

std::variant<std::vector<config::RunConfig>, int> check_points(
    const sweep::SweepArgs& s, const std::vector<sweep::SweepPoint>& points) {
  const auto& o = s.options;
  std::vector<config::RunConfig> configs;
  std::string errors;
  for (const std::size_t i : points_to_check(points)) {
    const sweep::SweepPoint& p = points[i];
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
    if (configs.empty()) configs.push_back(std::move(outcome.config));
  }
  if (!errors.empty()) {
    std::cerr << errors;
    return kExitBadConfig;
  }
  if (!s.params.empty() && configs.front().load.fixed_schedule) {
    std::cerr << kSweepOnFixedSchedule;
    return kExitBadConfig;
  }
  // The UI is only ever dashboard when typed: without --ui-type the runner chooses it later.
  if (configs.front().ui == config::UiType::kDashboard) {
    std::cerr << kDashboardWithManyRuns;
    return kExitBadConfig;
  }
  if (o.cache_salt_per_run && cache_salt_given_twice(configs.front())) {
    std::cerr << kCacheSaltTwice;
    return kExitBadConfig;
  }
  return configs;
}

}  // namespace inferperf::app
