// Sweeps and repeated runs on the command line: comma lists on the sweepable profile flags and the
// orchestration flags (--num-profile-runs, --sweep-type, ...) are taken off the argument list here,
// before the profile parser sees it, so every point is then an ordinary single-value profile
// command line that the parser validates like any other.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sweep/convergence.hpp"
#include "sweep/search_args.hpp"

namespace inferperf::config {
struct RunConfig;
}

namespace inferperf::sweep {

// One swept flag (an AIPerf 0.11 "magic list"): its short name in inferperf's labels and
// sweep_summary ("concurrency", "request_rate", "isl", ...), the flag the child gets, the values
// in the order given (canonical: "04" -> "4", a float flag's "5" -> "5.0"), the AIPerf 0.11 config
// path it sweeps ("phases.profiling.concurrency") and that path's last segment, which names the
// variation folders ("concurrency_4", "mean_512").
struct SweepParam {
  std::string name;
  std::string flag;
  std::vector<std::string> values;
  std::string path;
  std::string dir_name;       // empty: `name`
  bool inline_value = false;  // the child gets "--flag=value" (a scenario's flag may be a switch)
};

struct SweepOptions {
  int num_profile_runs = 1;                // 1..10
  double profile_run_cooldown_s = 0.0;     // between repeated runs of one point
  double confidence_level = 0.95;          // (0, 1)
  bool disable_warmup_after_first = true;  // warmup only in the first run of each point
  bool consistent_seed = true;             // every run of a point uses the same seed
  // grid | zip (--sweep-type); what else made the points: scenarios (--variant, a recipe's
  // shapes), sobol | latin_hypercube (a sampled design).
  std::string sweep_type = "grid";
  // --parameter-sweep-mode: repeated (every trial runs all points: profile_runs/trial_NNNN/<point>)
  // or independent (each point runs all its trials: <point>/profile_runs/trial_NNNN).
  std::string sweep_mode = "repeated";
  bool sweep_same_seed = false;     // --parameter-sweep-same-seed: every point gets the base seed
  double sweep_cooldown_s = 0.0;    // between points
  bool cache_salt_per_run = false;  // fresh cache_salt extra input for every run
  bool auto_plot = false;           // inferperf plot over the results at the end
  bool auto_plot_given = false;     // --[no-]auto-plot typed (else a curve recipe turns it on)
  bool plot_required = false;       // --plot-required: a failed auto plot fails the command
  bool dry_run = false;             // --dry-run: check every run's command line, send nothing
  std::optional<std::string> artifact_dir;  // --artifact-dir / --output-artifact-dir, if given
  std::optional<std::string> random_seed;   // --random-seed, if given
  // --vary-seed-per-trial: each trial's seed is derived from the base seed (trial_seed.hpp).
  bool vary_seed_per_trial = false;
  // --convergence-*: a point's runs stop early once its metric has converged.
  ConvergenceOptions convergence;
};

// One point of an explicit plan (the --variant scenarios, a recipe's paired shapes, a sampled
// design) instead of a grid or zip of lists: its name ("" derives the label and folder from its
// values) and one value per SweepParam, "" where this point leaves the flag as the base has it.
struct ExplicitPoint {
  std::string name;
  std::vector<std::string> values;
};

// A recipe's step after the runs: the derived file it writes into sweep_aggregate/ (knee,
// curve fit, surface, Pareto frontier, SLA breach boundary; sweep/recipe_post.hpp).
struct RecipePost {
  std::string handler;     // degradation_knee_detect | ttft_curve_fit | itl_surface_fit | ...
  std::string file;        // degradation_knee.json, prefill_curve.json, ...
  std::string metric_tag;  // the metric it reads
  std::string stat;        // and its statistic
  double threshold = 0.0;  // degradation_knee_detect: the relative rise that is the knee
};

struct SweepArgs {
  // The profile arguments without the orchestration flags, the artifact folder flag and the swept
  // flags (each swept flag is put back per point by child_args).
  std::vector<std::string> base;
  // Only flags given a list of two or more values, ordered by `path` as AIPerf 0.11 orders the
  // axes (folder names, run order, variation index): `--concurrency 8,16 --isl 64,128` has the
  // isl axis (datasets.main.prompts.isl.mean) first.
  std::vector<SweepParam> params;
  SweepOptions options;
  // Non-empty: the points to run, in order, instead of expanding `params` as a grid or zip.
  std::vector<ExplicitPoint> explicit_points;
  std::vector<std::string> variants;  // --variant / --sweep-variant, as typed (repeatable)
  std::optional<RecipePost> post;     // a grid recipe's post-processing
  std::optional<std::string> design;  // --sweep-design: a sampled design as JSON (from YAML)
  // Its sampling_design.json, once sampled (shared: a 2^20-sample design is a large text and the
  // plan is copied).
  std::shared_ptr<const std::string> design_file;
  SearchArgs search;                // --search-*: an adaptive search
  std::vector<std::string> errors;  // one line per bad flag or value

  // A sweep, a search, several runs, or any mix: the orchestrator runs each run as its own
  // process.
  bool orchestrated() const {
    return !params.empty() || options.num_profile_runs > 1 || search.enabled();
  }
};

// A flag of the plan as a whole (--num-profile-runs, --sweep-type, --random-seed, ...), which the
// orchestrator takes off the command line.
bool is_orchestration_flag(const std::string& flag);

// `args` are the words after the program name; only a `profile` command is looked at (anything
// else comes back as `base` unchanged).
SweepArgs extract_sweep_args(const std::vector<std::string>& args);

// What one run gets: `base` with each swept flag set to its value at this point (in params order),
// the artifact folder, and the extra words (cache salt, seed, warmup switch) appended.
struct RunArgs {
  std::vector<std::string> point_values;  // one per SweepParam
  std::string artifact_dir;               // empty: none given (the profile default applies)
  std::optional<std::string> cache_salt;
  std::optional<std::string> random_seed;
  bool no_warmup = false;
};
// A point's empty values (an explicit point that leaves a flag alone) add nothing.
std::vector<std::string> child_args(const SweepArgs& s, const RunArgs& run);

// AIPerf 0.11 never lets the warmup inherit a concurrency *list* (its warmup concurrency is the
// warmup one, else a single profiling one, else 1), whereas every child here gets one value of
// the list and its warmup would inherit that. So when --concurrency is swept and `point` (a
// point's parsed config) has a concurrency warmup with no --warmup-concurrency of its own,
// "--warmup-concurrency 1" is added to `s.base`; true when it was. A rate warmup is left alone.
bool pin_warmup_concurrency(SweepArgs& s, const config::RunConfig& point);

// The --extra-inputs word that sends `salt` as the cache_salt: a JSON object, so the salt is a JSON
// string whatever its digits (as "key:value" text an all-digit salt would become a number).
std::string cache_salt_extra_input(const std::string& salt);

// A cache salt from 48 random bits: 12 hex digits (hex, not base64: base64 can hold '/' and '+').
std::string cache_salt_from_bits(std::uint64_t bits);

// A fresh cache salt for each call. The process-wide source is seeded from std::random_device, or
// from INFERPERF_CACHE_SALT_SEED (a whole number) when that is set, so tests and a user reproducing
// a run's exact request bodies get the same salts.
std::string random_cache_salt();

}  // namespace inferperf::sweep
