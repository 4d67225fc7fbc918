#include "app/profile/phase_plans.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <vector>

#include "core/file_names.hpp"
#include "timing/shard.hpp"

namespace inferperf::app {

namespace {

timing::ArrivalPattern pattern_of(std::optional<config::ArrivalPattern> p) {
  if (p == config::ArrivalPattern::kConstant) return timing::ArrivalPattern::kConstant;
  if (p == config::ArrivalPattern::kPoisson) return timing::ArrivalPattern::kPoisson;
  if (p == config::ArrivalPattern::kGamma) return timing::ArrivalPattern::kGamma;
  return timing::ArrivalPattern::kConcurrencyBurst;
}

timing::PhasePlan plan_from(const config::PhaseLoad& l, records::Phase phase, int url_count) {
  timing::PhasePlan p;
  p.phase = phase;
  p.pattern = pattern_of(l.arrival_pattern);
  p.rate = l.request_rate.value_or(0.0);
  p.smoothness = l.smoothness.value_or(1.0);
  p.concurrency = l.concurrency;
  p.prefill_concurrency = l.prefill_concurrency;
  p.concurrency_ramp_s = l.concurrency_ramp_s.value_or(0.0);
  p.prefill_ramp_s = l.prefill_ramp_s.value_or(0.0);
  p.rate_ramp_s = l.rate_ramp_s.value_or(0.0);
  p.request_count = l.request_count;
  p.num_sessions = l.num_sessions;
  p.duration_s = l.duration_s;
  p.url_count = url_count;
  return p;
}

// The plan with this shard's share cut; shard_problem() has refused a plan that cannot be cut.
timing::PhasePlan share(timing::PhasePlan p, const config::RunConfig& c) {
  p.shard = {c.shard.index, c.shard.count};
  auto cut = timing::shard_plan(p);
  return cut ? *cut : p;
}

timing::PhasePlan global_profiling_plan(const config::RunConfig& c, double schedule_zero_ms) {
  const auto& l = c.load;
  timing::PhasePlan p =
      plan_from(l, records::Phase::kProfiling, static_cast<int>(c.endpoint.urls.size()));
  p.cancel_rate_pct = l.cancellation_rate_pct.value_or(0.0);
  p.cancel_delay_s = l.cancellation_delay_s.value_or(0.0);
  if (l.fixed_schedule) {
    p.fixed_schedule = true;
    p.schedule_zero_ms = schedule_zero_ms;
  }
  if (l.user_centric_rate) {
    p.rate = *l.user_centric_rate;
    p.num_users = l.num_users.value_or(1);
  }
  return p;
}

// " ramped over 2 s" for a ramp, "" without one (the dry run's phase lines show both phases').
std::string ramp_text(double ramp_s) {
  return ramp_s > 0 ? fmt::format(" ramped over {} s", ramp_s) : std::string();
}

// Python's float repr, as AIPerf's folder names: 10 -> "10.0", 2.5 -> "2.5".
std::string python_float(double v) {
  return v == std::floor(v) && std::fabs(v) < 1e15 ? fmt::format("{:.1f}", v)
                                                   : fmt::format("{}", v);
}

}  // namespace

timing::SamplingStrategy sampling_strategy_of(config::SamplingStrategy s) {
  if (s == config::SamplingStrategy::kSequential) return timing::SamplingStrategy::kSequential;
  if (s == config::SamplingStrategy::kRandom) return timing::SamplingStrategy::kRandom;
  return timing::SamplingStrategy::kShuffle;
}

timing::PhasePlan warmup_plan(const config::RunConfig& c) {
  return share(
      plan_from(c.load.warmup, records::Phase::kWarmup, static_cast<int>(c.endpoint.urls.size())),
      c);
}

timing::PhasePlan profiling_plan(const config::RunConfig& c, double schedule_zero_ms) {
  return share(global_profiling_plan(c, schedule_zero_ms), c);
}

std::string shard_problem(const config::RunConfig& c) {
  if (!c.shard.sharded()) return "";
  std::vector<timing::PhasePlan> plans{global_profiling_plan(c, 0.0)};
  if (c.load.warmup_enabled) plans.push_back(plan_from(c.load.warmup, records::Phase::kWarmup, 1));
  for (auto& p : plans) {
    p.shard = {c.shard.index, c.shard.count};
    if (auto cut = timing::shard_plan(p); !cut) return cut.error().message;
  }
  return "";
}

std::string describe(const timing::PhasePlan& p) {
  std::vector<std::string> parts;
  if (p.fixed_schedule) parts.push_back("fixed schedule");
  if (p.num_users > 0) {
    parts.push_back(fmt::format("user-centric {} req/s over {} users (a turn every {:.3g} s each)",
                                p.rate, p.num_users, p.num_users / p.rate));
  } else if (p.rate > 0) {
    parts.push_back(fmt::format("{} req/s {}", p.rate,
                                p.pattern == timing::ArrivalPattern::kConstant ? "constant"
                                : p.pattern == timing::ArrivalPattern::kGamma  ? "gamma"
                                                                               : "poisson") +
                    ramp_text(p.rate_ramp_s));
  }
  if (p.concurrency)
    parts.push_back(fmt::format("concurrency {}", *p.concurrency) +
                    ramp_text(p.concurrency_ramp_s));
  if (p.prefill_concurrency)
    parts.push_back(fmt::format("prefill concurrency {}", *p.prefill_concurrency) +
                    ramp_text(p.prefill_ramp_s));
  if (p.request_count) parts.push_back(fmt::format("{} requests", *p.request_count));
  if (p.num_sessions) parts.push_back(fmt::format("{} sessions", *p.num_sessions));
  if (p.duration_s) parts.push_back(fmt::format("{} s", *p.duration_s));
  if (p.url_count > 1) parts.push_back(fmt::format("{} URLs round robin", p.url_count));
  if (p.shard.count > 1) {
    std::string of = fmt::format("shard {} of {}", p.shard.index, p.shard.count);
    if (p.pattern != timing::ArrivalPattern::kConcurrencyBurst && !p.fixed_schedule &&
        p.num_users == 0)
      of += p.pattern == timing::ArrivalPattern::kConstant
                ? fmt::format(": 1 of every {} arrivals of the whole schedule (round robin)",
                              p.shard.count)
                : fmt::format(": about 1 in {} arrivals of the whole schedule (random thinning)",
                              p.shard.count);
    parts.push_back(of);
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string artifact_leaf(const config::RunConfig& c) {
  std::string model = c.endpoint.model_names.front();
  if (c.endpoint.model_names.size() > 1) model += "_multi";
  std::vector<std::string> stimulus;
  if (c.load.fixed_schedule) {
    stimulus.push_back("fixed_schedule");
  } else if (c.load.user_centric_rate) {
    stimulus.push_back(fmt::format("user_centric-users{}-qps{}", c.load.num_users.value_or(0),
                                   python_float(*c.load.user_centric_rate)));
  } else if (c.load.request_rate) {
    // AIPerf 0.11 names a rate phase by its concurrency cap only, never by the rate (its folder
    // code looks the rate up under a name rate phases do not have): `--request-rate 5` alone
    // writes to <model>-openai-chat. Matched so scripts find the folder (docs/decisions.md).
    if (c.load.concurrency) stimulus.push_back(fmt::format("concurrency{}", *c.load.concurrency));
  } else {
    stimulus.push_back(fmt::format("concurrency{}", c.load.concurrency.value_or(1)));
  }
  std::string rest = fmt::format("-openai-{}", config::to_string(c.endpoint.type));
  if (!stimulus.empty()) rest += fmt::format("-{}", fmt::join(stimulus, "-"));
  // The model name comes from the user or the server's /v1/models: it becomes one safe component
  // ("org/model" -> "org_model", "../x" -> "_._x", control characters -> "_"), cut so the whole
  // leaf fits a file name.
  const std::size_t room =
      rest.size() < core::kMaxFileNameBytes ? core::kMaxFileNameBytes - rest.size() : 1;
  return core::safe_file_name(model, room) + core::safe_file_name(rest);
}

}  // namespace inferperf::app
