// What every orchestrated mode (a sweep, repeated runs, a search) shares: each run is a child
// `inferperf profile` process in its own folder, started and waited for here, with the signals
// that stop the orchestrator passed on; the run's summary is read back; every run's command line
// is checked before anything is sent.
#pragma once
#include <csignal>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "artifacts/export_names.hpp"
#include "config/run_config.hpp"
#include "sweep/confidence.hpp"
#include "sweep/convergence.hpp"
#include "sweep/points.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::app {

// SIGINT and SIGTERM handled while it lives: the running child is told (when the signal came from
// a process, not the terminal) and stopping() turns true.
class SignalScope {
 public:
  SignalScope();
  ~SignalScope();
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// A signal asked the orchestrator to stop.
bool stopping();
// A child was stopped by a signal: the orchestrator stops as well.
void note_child_stopped();

// Sleeps `seconds`, waking early when a signal asks the orchestrator to stop.
void cooldown(double seconds, const char* what);

// Runs `exe args...` (argv[0] "inferperf") in this terminal and waits; the exit code, or 128 +
// the signal that ended it; -1 when it could not be started. `env`: extra NAME=value words.
int spawn_and_wait(const std::string& exe, const std::vector<std::string>& args,
                   std::vector<std::string> env = {});

// The folder name under the artifact directory when --artifact-dir is not given:
// "<model>-openai-<endpoint>-<kind>-<param>-..." (kind "sweep" or "search"), or "...-runs".
std::string orchestrated_leaf(const config::RunConfig& c,
                              const std::vector<sweep::SweepParam>& params,
                              std::string_view kind = "sweep");

// The run in `dir` as the aggregates see it: its summary, and whether it counts (exported, and
// exit code 0 or 130).
sweep::RunResult read_run(const std::string& label, const std::filesystem::path& dir,
                          const artifacts::ExportNames& names, int exit_code);

// A run's per-request values from its profile_export.jsonl (every numeric metric, or `only`),
// in first-seen order; nothing when the file is missing (--export-level summary).
sweep::RunValues read_run_values(const sweep::RunResult& run, const artifacts::ExportNames& names,
                                 const std::string* only = nullptr);

void write_or_warn(const std::filesystem::path& file, const std::string& content);

// The seed of every run: --random-seed, else 42 for a sweep or repeated runs with consistent
// seeding (AIPerf 0.11); each sweep point (or search iteration) adds its variation index unless
// --parameter-sweep-same-seed; without consistent seeding each trial adds its index. With
// --vary-seed-per-trial each trial's seed is derived from that base, the variation label and the
// trial (sweep::trial_seed).
std::optional<std::string> run_seed(const sweep::SweepOptions& o, bool sweep, int point, int trial,
                                    const std::string& variation_label);

// The points' command lines checked before anything is sent: the first point's config, else the
// exit code (with the messages printed). Up to 512 points every one is checked; past that (a
// sampled design can hold 2^20) the first 512 and each that holds an axis's smallest or largest
// value, so a huge plan is checked in bounded time and memory.
std::variant<std::vector<config::RunConfig>, int> check_points(
    const sweep::SweepArgs& s, const std::vector<sweep::SweepPoint>& points);

}  // namespace inferperf::app
