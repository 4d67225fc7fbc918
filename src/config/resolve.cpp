#include "config/resolve.hpp"

#include <algorithm>
#include <cstdint>

#include "config/validate.hpp"
#include "core/goodput_target.hpp"

namespace inferperf::config {

ResolvedPattern resolve_arrival_pattern(std::optional<double> rate,
                                        std::optional<ArrivalPattern> pattern,
                                        std::optional<double> smoothness,
                                        const std::string& prefix) {
  ResolvedPattern r{pattern, ""};
  auto& p = r.pattern;
  // AIPerf 0.11: the smoothness belongs to a gamma phase (a rate and --arrival-pattern gamma); it
  // no longer switches the pattern to gamma by itself.
  if (smoothness) {
    if (!(*smoothness > 0)) {
      r.error = "--" + prefix + "arrival-smoothness must be greater than 0";
      return r;
    }
    if (p != ArrivalPattern::kGamma || !rate) {
      r.error = "--" + prefix +
                "arrival-smoothness shapes gamma arrivals: it needs --request-rate and --" +
                prefix + "arrival-pattern gamma" +
                (p ? " (got " + std::string(to_string(*p)) + ")" : std::string());
      return r;
    }
  }
  if (rate) {
    if (!(*rate > 0)) {
      r.error = "--" + prefix + "request-rate must be greater than 0";
    } else if (!p || p == ArrivalPattern::kConcurrencyBurst) {
      // AIPerf 0.11 runs concurrency_burst with a rate as Poisson, without a word.
      p = ArrivalPattern::kPoisson;
    }
    return r;
  }
  if (p && p != ArrivalPattern::kConcurrencyBurst) {
    r.error =
        "--" + prefix + "arrival-pattern " + to_string(*p) + " needs --" + prefix + "request-rate";
    return r;
  }
  p = ArrivalPattern::kConcurrencyBurst;
  return r;
}

bool has_warmup_stop(const PhaseLoad& w) {
  return w.request_count || w.duration_s || w.num_sessions;
}

void resolve_given_options(RunConfig& c) {
  auto& load = c.load;
  load.arrival_pattern =
      resolve_arrival_pattern(load.request_rate, load.arrival_pattern, load.smoothness, "").pattern;
  load.warmup_enabled = has_warmup_stop(load.warmup) && !load.no_warmup;
}

namespace {

// A stop condition and a load for every run (with a warning for each default).
void resolve_load_defaults(RunConfig& c) {
  auto& load = c.load;
  const bool fixed = load.fixed_schedule;
  // A fixed schedule ends with its file; a request count or session count may stop it earlier.
  const bool has_stop = fixed || load.request_count || load.num_sessions || load.duration_s;
  if (fixed || load.user_centric_rate) {
    // --concurrency, when given, is a blocking ceiling; no defaults are added.
  } else if (load.request_rate) {
    if (!has_stop) {
      load.request_count = 10;
      c.warnings.push_back("no stop condition given; using --request-count 10");
    }
  } else {
    if (!load.concurrency && !load.prefill_concurrency) {
      load.concurrency = 1;
      c.warnings.push_back("no --concurrency given; using concurrency 1");
    }
    if (!has_stop) {
      // AIPerf 0.11 sends 10 whatever the concurrency (its help text's max(10, 2 x concurrency)
      // is not what it does).
      load.request_count = 10;
      c.warnings.push_back("no stop condition given; using --request-count 10");
    }
  }
}

// Unset warmup load options fall back to the profiling ones (already resolved).
void resolve_warmup_load(RunConfig& c) {
  auto& load = c.load;
  auto& w = load.warmup;
  if (!w.request_rate && !w.arrival_pattern) {
    w.request_rate = load.request_rate;
    w.arrival_pattern = load.arrival_pattern;
    if (!w.smoothness) w.smoothness = load.smoothness;
  }
  // With --adaptive-scale, --concurrency is only the ceiling: the warmup does not inherit it.
  if (!w.concurrency)
    w.concurrency = load.adaptive_scale ? std::optional<int>(1) : load.concurrency;
  if (!w.prefill_concurrency) w.prefill_concurrency = load.prefill_concurrency;
  w.arrival_pattern =
      resolve_arrival_pattern(w.request_rate, w.arrival_pattern, w.smoothness, "warmup-").pattern;
  if (!w.request_rate && !w.concurrency && !w.prefill_concurrency) w.concurrency = 1;
  // AIPerf 0.11: the warmup ramps default to the profiling ones; one is taken only for a load the
  // warmup phase has, so an inherited ramp never makes the warmup invalid.
  if (!w.concurrency_ramp_s && w.concurrency) w.concurrency_ramp_s = load.concurrency_ramp_s;
  if (!w.prefill_ramp_s && w.prefill_concurrency) w.prefill_ramp_s = load.prefill_ramp_s;
  if (!w.rate_ramp_s && w.request_rate) w.rate_ramp_s = load.rate_ramp_s;
}

}  // namespace

void resolve_defaults(RunConfig& c) {
  // AIPerf 0.11's dataset size: --num-dataset-entries when typed, else the session count, else
  // the request count as typed (before the default below), else 100.
  if (!c.set_options.count("--num-dataset-entries")) {
    constexpr std::int64_t kEntryCeiling = 10'000'000;  // --num-dataset-entries' own ceiling
    const auto typed = c.load.num_sessions ? std::optional<std::int64_t>(*c.load.num_sessions)
                                           : c.load.request_count;
    if (typed) c.input.num_dataset_entries = static_cast<int>(std::min(*typed, kEntryCeiling));
  }
  // AIPerf 0.11 samples every dataset in order unless told otherwise.
  if (!c.input.sampling_strategy) c.input.sampling_strategy = SamplingStrategy::kSequential;
  resolve_load_defaults(c);
  if (c.load.warmup_enabled) resolve_warmup_load(c);
  c.media = resolved_media(c);
  // Validation has checked the syntax; the tags are the metrics module's to check.
  c.metrics.goodput_targets.clear();
  if (c.set_options.count("--goodput"))
    core::parse_goodput_targets(c.metrics.goodput, c.metrics.goodput_targets);
}

}  // namespace inferperf::config
