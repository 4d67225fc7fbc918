// The load options: tokenizer, load generator, warmup, the run's length, and the sweep options.
#include "config/cli_areas.hpp"
#include "config/numeric_ranges.hpp"

namespace inferperf::config {

namespace {

// Adaptive scale (AIPerf 0.11): one run that finds and holds the concurrency boundary.
void add_adaptive_scale_options(CLI::App& profile, LoadConfig& load) {
  const char* group = "Load Generator";
  profile
      .add_flag("--adaptive-scale", load.adaptive_scale,
                "Start at concurrency 1 and raise it while every --adaptive-scale-sla filter "
                "holds on each assessment window; hold the last passing level for "
                "--adaptive-sustain-duration (--concurrency is the ceiling, "
                "--benchmark-duration the budget)")
      ->group(group);
  profile
      .add_option("--adaptive-sustain-duration", load.adaptive_sustain_s,
                  "Seconds to hold the boundary once found")
      ->group(group);
  profile
      .add_option("--adaptive-assessment-period,--adaptive-scale-assessment-period",
                  load.adaptive_assessment_s, "Seconds of each SLA window (at least 1; 5)")
      ->group(group);
  profile
      .add_option("--adaptive-scale-sla", load.adaptive_scale_sla,
                  "TAG:STAT:OP:THRESHOLD, repeatable: request_latency (any stat), "
                  "request_throughput or goodput_ratio (avg, min, max)")
      ->group(group);
}

// The --search-* options, taken off the command line by sweep::extract_sweep_args like the sweep
// options (docs/sweeps.md, Search); declared for --help.
void add_search_options(CLI::App& profile) {
  static std::vector<std::string> ignored_list;
  static std::string ignored;
  const char* group = "Search";
  profile
      .add_option("--search-space", ignored_list,
                  "PATH:LO,HI[:int|real], repeatable: a dimension to search, e.g. "
                  "phases.profiling.concurrency:1,64 (one for monotonic_sla and smooth_isotonic)")
      ->group(group);
  profile
      .add_option("--search-sla", ignored_list,
                  "METRIC:STAT:OP:THRESHOLD, repeatable: a point is feasible when every filter "
                  "holds on the mean over its runs (e.g. time_to_first_token:p99:lt:500)")
      ->group(group);
  profile
      .add_option("--search-sla-tier", ignored_list,
                  "[LABEL:]FILTER[,FILTER...], 2 to 10 times: one search per SLO tier (with the "
                  "--search-sla filters), sharing the runs")
      ->group(group);
  profile
      .add_option("--variant,--sweep-variant", ignored_list,
                  "[NAME:] KEY=VALUE, KEY=VALUE, 2 or more times: each one run (scenario) with "
                  "those profile options (keys are flag names without --)")
      ->group(group);
  const std::vector<std::pair<const char*, const char*>> options = {
      {"--search-metric", "The objective's metric tag (request_throughput)"},
      {"--search-stat", "The objective's statistic: avg (default), p50, p90, p95, p99"},
      {"--search-direction", "maximize | minimize the objective"},
      {"--search-max-iterations",
       "At most this many points are run (2-200), per tier with --search-sla-tier"},
      {"--search-planner",
       "bayesian (default: a Gaussian process and constrained expected improvement over the "
       "box), monotonic_sla (bisection) or smooth_isotonic (aims where a monotone fit of each "
       "filter crosses its threshold): the last two find the largest value meeting every filter"},
      {"--search-initial-points", "bayesian: Sobol points before the model is fitted (5)"},
      {"--search-random-seed", "bayesian: its proposals' seed (else --random-seed, else 42)"},
      {"--search-percentile-pooling",
       "mean (default: the mean of each run's percentile) | pooled (the percentile of every "
       "run's requests together) for a percentile objective"},
      {"--bo-constraint-mode", "Accepted and ignored (deprecated in AIPerf 0.11)"},
      {"--search-recipe",
       "max-concurrency-under-sla, max-throughput-ttft-sla, max-throughput-itl-sla, "
       "max-goodput-under-slo (searches); concurrency-ramp, prefill-ttft-curve, "
       "decode-itl-curve, pareto-sweep (sweeps with a derived file in sweep_aggregate/)"},
      {"--search-style",
       "max-concurrency-under-sla's planner: smooth_isotonic (default), monotonic, bo, optuna "
       "(both the bayesian planner) or grid"},
      {"--ttft-sla-ms", "Recipe threshold on time_to_first_token, ms"},
      {"--itl-sla-ms", "Recipe threshold on inter_token_latency, ms"},
      {"--tpot-sla-ms", "Recipe threshold on inter_token_latency (TPOT), ms"},
      {"--e2e-sla-ms", "Recipe threshold on request_latency, ms"},
      {"--error-rate-sla", "Recipe ceiling on request_error_rate, a share in (0, 1)"},
      {"--slo-attainment-fraction",
       "max-goodput-under-slo: the share of good requests a point needs (0.95)"},
      {"--concurrency-min", "The recipe's lowest concurrency (1)"},
      {"--concurrency-max", "The recipe's highest concurrency (1000; decode-itl-curve 200)"},
      {"--concurrency-steps", "Log-spaced concurrencies (concurrency-ramp 8, decode-itl-curve 6)"},
      {"--isl-min", "prefill-ttft-curve's shortest prompt (256)"},
      {"--isl-max", "prefill-ttft-curve's longest prompt (32768)"},
      {"--isl-steps", "prefill-ttft-curve's log-spaced prompt lengths (8)"},
      {"--osl-min", "decode-itl-curve's shortest answer (64)"},
      {"--osl-max", "decode-itl-curve's longest answer (1024)"},
      {"--osl-steps", "decode-itl-curve's log-spaced answer lengths (4)"},
      {"--degradation-threshold",
       "concurrency-ramp: the rise over the lowest level that is the "
       "knee (0.20)"},
      {"--degradation-metric-tag", "concurrency-ramp: the metric watched (request_latency)"},
      {"--degradation-stat", "concurrency-ramp: its statistic (p99)"},
      {"--isl-osl-pairs", "pareto-sweep's shapes: ISL/OSL,ISL/OSL,..."},
  };
  for (const auto& [name, help] : options) profile.add_option(name, ignored, help)->group(group);
}

// Sweeps and repeated runs are taken off the command line by sweep::extract_sweep_args before this
// parser runs; they are declared here so that --help lists them, and they never reach `c`.
void add_sweep_options(CLI::App& profile) {
  static std::string ignored;
  static bool ignored_flag = false;
  const char* group = "Sweeps and repeated runs";
  struct Declared {
    const char* name;
    const char* help;
    const char* range_of;  // the flag whose numeric range applies; nullptr: `name`
  };
  const std::vector<Declared> options = {
      {"--num-profile-runs",
       "Run every point N times and write aggregate/ confidence statistics: "
       "profile_runs/run_NNNN/ without a sweep; with one, profile_runs/trial_NNNN/<variation>/ "
       "(--parameter-sweep-mode repeated) or <variation>/profile_runs/trial_NNNN/ (independent)",
       nullptr},
      {"--profile-run-cooldown-seconds", "Seconds to wait between repeated runs (0)", nullptr},
      {"--confidence-level", "Confidence level of the cross-run intervals (0.95)", nullptr},
      {"--sweep-type", "grid (every combination of the comma lists, default) | zip (item by item)",
       nullptr},
      {"--parameter-sweep-mode",
       "repeated (default: every trial runs all sweep points) | independent (each point runs all "
       "its trials before the next point)",
       nullptr},
      {"--sweep-cooldown-seconds,--parameter-sweep-cooldown-seconds",
       "Seconds to wait between sweep points (0)", "--sweep-cooldown-seconds"},
      {"--convergence-metric",
       "Stop a point's repeated runs early once this metric has converged (--num-profile-runs is "
       "the cap; from the second run on)",
       nullptr},
      {"--convergence-stat", "Its statistic: avg (default), p50, p90, p95, p99, min, max", nullptr},
      {"--convergence-mode",
       "ci_width (default: the confidence interval's width / |mean|), cv (std / |mean|) or "
       "distribution (KS test of the last run's per-request values against the earlier runs')",
       nullptr},
      {"--convergence-threshold",
       "Converged below it (ci_width 0.10, cv 0.05), or for distribution above it (0.05); (0, 1)",
       nullptr},
  };
  // Kept as text (the sweep module reads them), but numbers: the range check knows them by this.
  for (const auto& o : options) {
    CLI::Option* opt = profile.add_option(o.name, ignored, o.help)->group(group);
    if (const NumericRange* r = find_numeric_range(o.range_of ? o.range_of : o.name))
      opt->type_name(r->kind == NumberKind::kWhole ? "INT" : "FLOAT");
  }
  const std::vector<std::pair<const char*, const char*>> flags = {
      {"--profile-run-disable-warmup-after-first,!--no-profile-run-disable-warmup-after-first",
       "Warmup only in the first of the repeated runs (default on)"},
      {"--set-consistent-seed,!--no-set-consistent-seed",
       "The same seed in every repeated run: --random-seed, else 42 (default on; off: each trial "
       "adds its index to --random-seed, and runs unseeded without one)"},
      {"--parameter-sweep-same-seed,!--no-parameter-sweep-same-seed",
       "Every sweep point reuses --random-seed, which it needs (default off: each point adds its "
       "index to the seed)"},
      {"--cache-salt-per-run",
       "Send a fresh random hex cache_salt extra input in every run, so the server's prefix cache "
       "cannot carry results from one run or point to the next"},
      {"--auto-plot,!--no-auto-plot",
       "Run `inferperf plot` over the results at the end (default off)"},
      {"--plot-required",
       "With --auto-plot: a plot that fails makes the command exit 1 (default: only a warning)"},
      {"--no-sweep-table",
       "Accepted for AIPerf 0.11 command lines; inferperf shows no live per-point sweep table "
       "(every run prints one line), so there is nothing to hide"},
      {"--vary-seed-per-trial,!--no-vary-seed-per-trial",
       "Each run gets its own seed: the first 8 bytes of SHA-256 of \"<seed>:variation:<label>:"
       "trial:<n>\" (AIPerf 0.11; needs --random-seed, or repeated runs' default 42; default "
       "off: the runs of a point share its seed)"},
      {"--dry-run",
       "Check the whole command line (every point and run of a sweep) and print what would run; "
       "nothing is sent, no file or folder is read or written"},
  };
  for (const auto& [name, help] : flags) profile.add_flag(name, ignored_flag, help)->group(group);
  add_search_options(profile);
}

// The AIPerf 0.11 magic lists: each of these takes a comma list, which makes the run a sweep
// (sweep::extract_sweep_args). Added here, once all twelve are declared (some in other files), to
// the help of each that does not say it already.
void mark_sweepable_options(CLI::App& profile) {
  for (const char* name :
       {"--concurrency", "--prefill-concurrency", "--request-rate", "--request-count",
        "--benchmark-duration", "--num-conversations", "--num-users", "--isl", "--isl-stddev",
        "--osl", "--osl-stddev", "--conversation-turn-mean"}) {
    CLI::Option* opt = profile.get_option_no_throw(name);
    if (opt == nullptr) continue;
    std::string help = opt->get_description();
    if (help.find("comma list") != std::string::npos) continue;
    // Inside a closing parenthesis when there is one: "(needs --streaming; a comma list sweeps)".
    if (!help.empty() && help.back() == ')')
      help.insert(help.size() - 1, "; a comma list sweeps");
    else
      help += " (a comma list sweeps)";
    opt->description(help);
  }
}

// --warmup-*: the warmup phase's stop condition and load (each falls back to the profiling one).
void add_warmup_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--warmup-request-count,--num-warmup-requests", c.load.warmup.request_count,
                   "Warmup requests (excluded from results)")
      ->group("Warmup");
  profile->add_option("--warmup-duration", c.load.warmup.duration_s, "Warmup seconds")
      ->group("Warmup");
  profile->add_option("--num-warmup-sessions", c.load.warmup.num_sessions, "Warmup sessions")
      ->group("Warmup");
  profile
      ->add_option("--warmup-concurrency", c.load.warmup.concurrency,
                   "Warmup concurrency (default: the profiling one)")
      ->group("Warmup");
  profile
      ->add_option("--warmup-prefill-concurrency", c.load.warmup.prefill_concurrency,
                   "Warmup prefill concurrency")
      ->group("Warmup");
  profile
      ->add_option("--warmup-request-rate", c.load.warmup.request_rate,
                   "Warmup request rate (default: the profiling one)")
      ->group("Warmup");
  profile
      ->add_option("--warmup-arrival-pattern", t.warmup_arrival_pattern, "Warmup arrival pattern")
      ->transform(enum_choice({"constant", "poisson", "gamma", "concurrency_burst"}))
      ->group("Warmup");
  // AIPerf 0.11: each defaults to the profiling ramp (when the warmup phase has that load).
  profile
      ->add_option("--warmup-concurrency-ramp-duration", c.load.warmup.concurrency_ramp_s,
                   "Seconds to step warmup concurrency up from 1 (default: the profiling ramp)")
      ->group("Warmup");
  profile
      ->add_option("--warmup-prefill-concurrency-ramp-duration", c.load.warmup.prefill_ramp_s,
                   "Seconds to step warmup prefill concurrency up from 1 (default: the profiling "
                   "ramp)")
      ->group("Warmup");
  profile
      ->add_option("--warmup-request-rate-ramp-duration", c.load.warmup.rate_ramp_s,
                   "Seconds to raise the warmup request rate linearly to its target (default: the "
                   "profiling ramp)")
      ->group("Warmup");
  profile
      ->add_option("--warmup-grace-period", c.load.warmup.grace_period_s,
                   "Seconds to wait for warmup responses after --warmup-duration (default inf)")
      ->group("Warmup");
  profile
      ->add_flag("--no-warmup", c.load.no_warmup,
                 "Skip the warmup phase (repeated runs pass it to every run after the first)")
      ->group("Warmup");
}

}  // namespace

// Tokenizer, load generator, warmup, sweeps and the run's length.
void add_load_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--tokenizer", c.tokenizer.name,
                   "tokenizer.json / .model file or folder, Hugging Face id (from the local "
                   "cache), or builtin; "
                   "default: the model name")
      ->group("Tokenizer");
  profile
      ->add_option("--tokenizer-revision", c.tokenizer.revision,
                   "Hugging Face cache revision (default main)")
      ->group("Tokenizer");
  profile
      ->add_flag("--tokenizer-trust-remote-code", c.tokenizer.trust_remote_code,
                 "Accepted for compatibility; inferperf never executes tokenizer code")
      ->group("Tokenizer");

  profile
      ->add_option("--concurrency", c.load.concurrency,
                   "Concurrent sessions kept in flight (a comma list sweeps: 1,2,4,8)")
      ->group("Load Generator");
  profile
      ->add_option("--prefill-concurrency", c.load.prefill_concurrency,
                   "Requests without a first token yet (needs --streaming)")
      ->group("Load Generator");
  profile
      ->add_option(
          "--request-rate", c.load.request_rate,
          "Requests per second (open loop; --concurrency becomes a ceiling; a comma list sweeps)")
      ->group("Load Generator");
  profile
      ->add_option("--arrival-pattern,--request-rate-mode", t.arrival_pattern,
                   "constant | poisson (default with a rate) | gamma | concurrency_burst")
      ->transform(enum_choice({"constant", "poisson", "gamma", "concurrency_burst"}))
      ->group("Load Generator");
  profile
      ->add_option("--arrival-smoothness,--vllm-burstiness", c.load.smoothness,
                   "Gamma shape: 1 is Poisson, < 1 burstier, > 1 smoother (selects gamma)")
      ->group("Load Generator");
  profile
      ->add_option("--user-centric-rate", c.load.user_centric_rate,
                   "Requests per second spread over --num-users users, each sending its next "
                   "turn num_users/rate seconds after its previous one (KV-cache benchmarking)")
      ->group("Load Generator");
  profile->add_option("--num-users", c.load.num_users, "Simulated users for --user-centric-rate")
      ->group("Load Generator");
  profile
      ->add_option("--concurrency-ramp-duration", c.load.concurrency_ramp_s,
                   "Seconds to step concurrency up from 1")
      ->group("Load Generator");
  profile
      ->add_option("--prefill-concurrency-ramp-duration", c.load.prefill_ramp_s,
                   "Seconds to step prefill concurrency up from 1")
      ->group("Load Generator");
  profile
      ->add_option("--request-rate-ramp-duration", c.load.rate_ramp_s,
                   "Seconds to raise the request rate linearly to its target")
      ->group("Load Generator");
  profile->add_option("--request-count,--num-requests", c.load.request_count, "Requests to send")
      ->group("Load Generator");
  profile
      ->add_option("--num-sessions,--num-conversations,--conversation-num", c.load.num_sessions,
                   "Sessions to start (a stop condition)")
      ->group("Conversation Input");
  profile
      ->add_option("--request-cancellation-rate", c.load.cancellation_rate_pct,
                   "Percent of requests cancelled after --request-cancellation-delay")
      ->group("Load Generator");
  profile
      ->add_option("--request-cancellation-delay", c.load.cancellation_delay_s,
                   "Seconds after the request is written before it is cancelled")
      ->group("Load Generator");
  add_warmup_options(profile, t);
  add_sweep_options(*profile);
  profile->add_option("--benchmark-duration", c.load.duration_s, "Seconds to keep issuing requests")
      ->group("Load Generator");
  profile
      ->add_option("--benchmark-grace-period", c.load.grace_period_s,
                   "Seconds to wait for in-flight responses after the duration or a first "
                   "SIGINT/SIGTERM")
      ->group("Load Generator");
  profile
      ->add_flag("--fail-on-incomplete-workload", c.load.fail_on_incomplete_workload,
                 "Exit 1 when any planned request is missing from the results (failed or never "
                 "sent); the run still exports everything")
      ->group("Load Generator");
  profile
      ->add_option("--failed-request-threshold", c.load.failed_request_threshold,
                   "Stop the run when failed requests exceed this fraction of finished ones "
                   "(0-1; checked once max(concurrency, 10) have finished)")
      ->group("Load Generator");
  profile->add_option("--workers-max,--max-workers", c.load.workers_max, "Cap on worker threads")
      ->group("Workers");
  add_adaptive_scale_options(*profile, c.load);
  mark_sweepable_options(*profile);
}

}  // namespace inferperf::config
