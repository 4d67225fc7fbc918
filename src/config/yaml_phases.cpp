// The load phases (`warmup`, `profiling`), `multi_run` and `sweep` of a YAML configuration.
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "config/yaml_support.hpp"

namespace inferperf::config::yaml {

namespace {

// One phase field and the flag it sets in each role ("" where that role has none).
struct PhaseField {
  const char* key;
  const char* profiling;
  const char* warmup;
  enum Kind { kNumber, kDuration, kRamp } kind;
};

constexpr PhaseField kPhaseFields[] = {
    {"concurrency", "--concurrency", "--warmup-concurrency", PhaseField::kNumber},
    {"prefill_concurrency", "--prefill-concurrency", "--warmup-prefill-concurrency",
     PhaseField::kNumber},
    {"requests", "--request-count", "--warmup-request-count", PhaseField::kNumber},
    {"sessions", "--num-sessions", "--num-warmup-sessions", PhaseField::kNumber},
    {"users", "--num-users", "", PhaseField::kNumber},
    {"smoothness", "--arrival-smoothness", "", PhaseField::kNumber},
    {"duration", "--benchmark-duration", "--warmup-duration", PhaseField::kDuration},
    {"grace_period", "--benchmark-grace-period", "--warmup-grace-period", PhaseField::kDuration},
    {"concurrency_ramp", "--concurrency-ramp-duration", "--warmup-concurrency-ramp-duration",
     PhaseField::kRamp},
    {"prefill_ramp", "--prefill-concurrency-ramp-duration",
     "--warmup-prefill-concurrency-ramp-duration", PhaseField::kRamp},
    {"rate_ramp", "--request-rate-ramp-duration", "--warmup-request-rate-ramp-duration",
     PhaseField::kRamp},
    {"start_offset", "--fixed-schedule-start-offset", "", PhaseField::kNumber},
    {"end_offset", "--fixed-schedule-end-offset", "", PhaseField::kNumber},
};

void phase_field(Ctx& ctx, const At& phase, const PhaseField& f, bool warmup) {
  const YAML::Node n = Ctx::get(phase.node, f.key);
  if (!n || n.IsNull()) return;
  const At at = phase.child(n, f.key);
  const std::string flag = warmup ? f.warmup : f.profiling;
  if (flag.empty()) {
    ctx.refuse(at, std::string("a warmup phase has no ") + f.key + " in inferperf");
    return;
  }
  std::optional<std::string> v;
  if (f.kind == PhaseField::kNumber) v = ctx.number(at);
  if (f.kind == PhaseField::kRamp) v = ctx.ramp(at);
  if (f.kind == PhaseField::kDuration) v = ctx.duration(at);
  if (!v) return;
  if (*v == "inf") {
    // An unbounded warmup grace period is the default; elsewhere a number is needed.
    if (!(warmup && std::string(f.key) == "grace_period"))
      ctx.error(at, "inf is not accepted here; give a number of seconds");
    return;
  }
  ctx.emit(flag, {*v}, at);
}

void phase_type_and_rate(Ctx& ctx, const At& phase, bool warmup, const std::string& type) {
  const YAML::Node rate = Ctx::get(phase.node, "rate");
  const At rate_at = phase.child(rate, "rate");
  const bool rated = type == "poisson" || type == "constant" || type == "gamma";
  if (type == "user_centric") {
    if (warmup) return ctx.refuse(phase, "a user-centric warmup phase");
    if (!rate) return ctx.error(phase, "a user_centric phase needs a rate");
    if (auto v = ctx.number(rate_at)) ctx.emit("--user-centric-rate", {*v}, rate_at);
  } else if (rated) {
    if (!rate) return ctx.error(phase, "a " + type + " phase needs a rate");
    if (auto v = ctx.number(rate_at))
      ctx.emit(warmup ? "--warmup-request-rate" : "--request-rate", {*v}, rate_at);
    const At t = phase.child(Ctx::get(phase.node, "type"), "type");
    // Poisson is what a rate means without a pattern; the profiling phase leaves it implicit so a
    // YAML run and `--request-rate R` are the same command line.
    if (warmup)
      ctx.emit("--warmup-arrival-pattern", {type}, t);
    else if (type != "poisson")
      ctx.emit("--arrival-pattern", {type}, t);
  } else if (type == "fixed_schedule") {
    if (warmup) return ctx.refuse(phase, "a fixed-schedule warmup phase");
    ctx.emit("--fixed-schedule", {}, phase.child(Ctx::get(phase.node, "type"), "type"));
    const YAML::Node ao = Ctx::get(phase.node, "auto_offset");
    bool auto_offset = !Ctx::get(phase.node, "start_offset");  // AIPerf's default: true
    if (ao) auto_offset = ctx.boolean(phase.child(ao, "auto_offset")).value_or(false);
    if (auto_offset)
      ctx.emit("--fixed-schedule-auto-offset", {}, ao ? phase.child(ao, "auto_offset") : phase);
  } else if (type != "concurrency") {
    ctx.error(phase.child(Ctx::get(phase.node, "type"), "type"),
              "unknown phase type '" + type +
                  "' (concurrency, poisson, constant, gamma, user_centric, fixed_schedule)");
  }
  if (rate && !rated && type != "user_centric")
    ctx.error(rate_at, "a rate needs a phase type poisson, constant, gamma or user_centric");
}

void translate_phase(Ctx& ctx, const At& phase, bool warmup) {
  if (!ctx.check_keys(phase, {"name",
                              "type",
                              "concurrency",
                              "prefill_concurrency",
                              "rate",
                              "smoothness",
                              "users",
                              "requests",
                              "duration",
                              "sessions",
                              "concurrency_ramp",
                              "prefill_ramp",
                              "rate_ramp",
                              "grace_period",
                              "cancellation",
                              "seamless",
                              "exclude_from_results",
                              "sla",
                              "auto_offset",
                              "start_offset",
                              "end_offset"}))
    return;
  std::string type = "concurrency";
  if (const YAML::Node t = Ctx::get(phase.node, "type")) {
    if (auto v = ctx.text(phase.child(t, "type"))) type = *v;
  }
  for (char& c : type)
    c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  phase_type_and_rate(ctx, phase, warmup, type);
  for (const PhaseField& f : kPhaseFields) phase_field(ctx, phase, f, warmup);
  ctx.refuse_unless_noop(phase, "seamless", "phases never overlap in inferperf");
  ctx.refuse_unless_noop(phase, "sla",
                         "per-phase SLA filters are not read; give sla_filters on the sweep");
  if (const YAML::Node e = Ctx::get(phase.node, "exclude_from_results")) {
    const At at = phase.child(e, "exclude_from_results");
    if (const auto b = ctx.boolean(at); b && *b != warmup)
      ctx.error(at, warmup ? "the warmup phase is always excluded from the results"
                           : "the profiling phase is always in the results");
  }
  const YAML::Node c = Ctx::get(phase.node, "cancellation");
  if (c && !c.IsNull()) {
    const At at = phase.child(c, "cancellation");
    if (warmup) {
      ctx.refuse(at, "request cancellation in the warmup phase");
    } else if (ctx.check_keys(at, {"rate", "delay"})) {
      ctx.number_flag(at, "rate", "--request-cancellation-rate");
      ctx.duration_flag(at, "delay", "--request-cancellation-delay");
    }
  }
}

void phase_by_name(Ctx& ctx, const At& phase, const std::string& name, bool& seen_warmup,
                   bool& seen_profiling) {
  if (name != "warmup" && name != "profiling") {
    ctx.error(phase, "phase name '" + name + "': only warmup and profiling are accepted");
    return;
  }
  bool& seen = name == "warmup" ? seen_warmup : seen_profiling;
  if (seen) return ctx.error(phase, "a second " + name + " phase");
  seen = true;
  translate_phase(ctx, phase, name == "warmup");
}

}  // namespace

void translate_phases(Ctx& ctx, const At& body) {
  bool seen_warmup = false, seen_profiling = false;
  for (const char* key : {"warmup", "profiling"}) {
    if (const YAML::Node n = Ctx::get(body.node, key); n && !n.IsNull())
      phase_by_name(ctx, body.child(n, key), key, seen_warmup, seen_profiling);
  }
  const YAML::Node phases = Ctx::get(body.node, "phases");
  if (!phases || phases.IsNull()) return;
  const At at = body.child(phases, "phases");
  if (phases.IsSequence()) {
    for (std::size_t k = 0; k < phases.size(); ++k) {
      const YAML::Node name = Ctx::get(phases[k], "name");
      const std::string n = name && name.IsScalar() ? name.Scalar() : "profiling";
      phase_by_name(ctx, at.child(phases[k], n), n, seen_warmup, seen_profiling);
    }
  } else if (phases.IsMap() && (Ctx::get(phases, "warmup") || Ctx::get(phases, "profiling"))) {
    for (const auto& kv : phases)
      phase_by_name(ctx, at.child(kv.second, kv.first.Scalar()), kv.first.Scalar(), seen_warmup,
                    seen_profiling);
  } else {  // one flat mapping: the profiling phase
    phase_by_name(ctx, at, "profiling", seen_warmup, seen_profiling);
  }
}

void translate_multi_run(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at,
                      {"num_runs", "cooldown_seconds", "confidence_level", "set_consistent_seed",
                       "vary_seed_per_trial", "disable_warmup_after_first", "convergence"}))
    return;
  ctx.number_flag(at, "num_runs", "--num-profile-runs");
  ctx.duration_flag(at, "cooldown_seconds", "--profile-run-cooldown-seconds");
  ctx.number_flag(at, "confidence_level", "--confidence-level");
  ctx.pair_flag(at, "set_consistent_seed", "--set-consistent-seed", "--no-set-consistent-seed");
  ctx.pair_flag(at, "disable_warmup_after_first", "--profile-run-disable-warmup-after-first",
                "--no-profile-run-disable-warmup-after-first");
  ctx.pair_flag(at, "vary_seed_per_trial", "--vary-seed-per-trial", "--no-vary-seed-per-trial");
  const YAML::Node conv = Ctx::get(at.node, "convergence");
  if (!conv || conv.IsNull()) return;
  const At c = at.child(conv, "convergence");
  if (!ctx.check_keys(c, {"metric", "stat", "mode", "threshold", "min_runs"})) return;
  ctx.text_flag(c, "metric", "--convergence-metric");
  ctx.text_flag(c, "stat", "--convergence-stat");
  ctx.text_flag(c, "mode", "--convergence-mode");
  ctx.number_flag(c, "threshold", "--convergence-threshold");
  // inferperf checks from the second run on, AIPerf 0.11's default and its command line's only
  // choice.
  if (const YAML::Node m = Ctx::get(conv, "min_runs"); m && !m.IsNull()) {
    const auto v = ctx.number(c.child(m, "min_runs"));
    if (v && *v != "2")
      ctx.refuse(c.child(m, "min_runs"),
                 "inferperf checks convergence from the second run on (min_runs 2)");
  }
}

namespace {

// A sweep key ("concurrency", "phases.profiling.rate", "datasets.main.prompts.isl.mean") to the
// body path, AIPerf's path of the axis and the magic-list flag that sweeps it (flag "" when
// inferperf cannot sweep it).
struct SweepTarget {
  std::string path, canonical, flag;
};

SweepTarget sweep_target(const std::string& key) {
  static const std::vector<std::pair<std::string, std::string>> kPhase = {
      {"concurrency", "--concurrency"},
      {"prefill_concurrency", "--prefill-concurrency"},
      {"rate", "--request-rate"},
      {"requests", "--request-count"},
      {"duration", "--benchmark-duration"},
      {"sessions", "--num-sessions"},
      {"users", "--num-users"}};
  std::string path = key;
  if (path.find('.') == std::string::npos) path = "phases.profiling." + path;
  for (const auto& [name, flag] : kPhase) {
    if (path == "phases.profiling." + name) return {path, path, flag};
  }
  // datasets.<name>.… or dataset.…: the one dataset, whatever its name.
  std::string rest;
  if (path.starts_with("dataset.")) {
    rest = path.substr(8);
  } else if (path.starts_with("datasets.")) {
    const auto dot = path.find('.', 9);
    if (dot != std::string::npos) rest = path.substr(dot + 1);
  }
  struct Tail {
    const char* tail;
    const char* canonical;
    const char* flag;
  };
  static const Tail kData[] = {{"prompts.isl", "prompts.isl.mean", "--isl"},
                               {"prompts.isl.mean", "prompts.isl.mean", "--isl"},
                               {"isl", "prompts.isl.mean", "--isl"},
                               {"prompts.isl.stddev", "prompts.isl.stddev", "--isl-stddev"},
                               {"prompts.osl", "prompts.osl.mean", "--osl"},
                               {"prompts.osl.mean", "prompts.osl.mean", "--osl"},
                               {"osl", "prompts.osl.mean", "--osl"},
                               {"prompts.osl.stddev", "prompts.osl.stddev", "--osl-stddev"},
                               {"turns", "turns.mean", "--conversation-turn-mean"},
                               {"turns.mean", "turns.mean", "--conversation-turn-mean"}};
  for (const Tail& t : kData) {
    if (rest == t.tail) return {path, std::string("datasets.main.") + t.canonical, t.flag};
  }
  return {path, path, ""};
}

// A sampled design (sobol, latin_hypercube): its dimensions' paths become the magic-list flags
// that set them, and the whole design travels to the sweep planner as one --sweep-design word
// (JSON), which samples it (sweep/design_plan.hpp).
void translate_design(Ctx& ctx, const At& at, const std::string& type) {
  if (!ctx.check_keys(at, {"type", "samples", "dimensions", "seed", "label_format"})) return;
  nlohmann::ordered_json design = {{"type", type}};
  const auto num = [&](std::string_view key) -> std::optional<double> {
    const YAML::Node n = Ctx::get(at.node, key);
    if (!n || n.IsNull()) return std::nullopt;
    const auto v = ctx.number(at.child(n, key));
    return v ? std::optional(std::strtod(v->c_str(), nullptr)) : std::nullopt;
  };
  if (const auto n = num("samples")) design["samples"] = *n;
  if (const auto n = num("seed")) design["seed"] = *n;
  if (const YAML::Node lf = Ctx::get(at.node, "label_format"); lf && !lf.IsNull())
    if (auto v = ctx.text(at.child(lf, "label_format"))) design["label_format"] = *v;
  const YAML::Node dims = Ctx::get(at.node, "dimensions");
  const At da = at.child(dims, "dimensions");
  if (!dims || !dims.IsSequence() || dims.size() == 0)
    return ctx.error(da, "expected a list of dimensions ({path, lo, hi, scale, kind, choices})");
  design["dimensions"] = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const At d = da.child(dims[k], std::to_string(k));
    if (!ctx.check_keys(d, {"path", "lo", "hi", "scale", "kind", "choices"})) continue;
    const YAML::Node pn = Ctx::get(dims[k], "path");
    const auto path = pn ? ctx.text(d.child(pn, "path")) : std::nullopt;
    if (!path) {
      ctx.error(d, "a dimension needs a path");
      continue;
    }
    const SweepTarget target = sweep_target(*path);
    if (target.flag.empty()) {
      ctx.refuse(d.child(pn, "path"),
                 "inferperf samples only concurrency, prefill_concurrency, rate, requests, "
                 "duration, sessions, users, isl/osl mean and stddev, and turns mean");
      continue;
    }
    nlohmann::ordered_json j = {{"path", target.canonical}, {"flag", target.flag}};
    for (const char* key : {"lo", "hi"}) {
      const YAML::Node n = Ctx::get(dims[k], key);
      if (!n || n.IsNull()) continue;
      if (auto v = ctx.number(d.child(n, key))) j[key] = std::strtod(v->c_str(), nullptr);
    }
    for (const char* key : {"scale", "kind"}) {
      const YAML::Node n = Ctx::get(dims[k], key);
      if (n && !n.IsNull())
        if (auto v = ctx.text(d.child(n, key))) j[key] = *v;
    }
    if (const YAML::Node ch = Ctx::get(dims[k], "choices"); ch && ch.IsSequence()) {
      j["choices"] = nlohmann::ordered_json::array();
      for (std::size_t c = 0; c < ch.size(); ++c)
        if (auto v = ctx.text(d.child(ch[c], std::to_string(c)))) j["choices"].push_back(*v);
    }
    design["dimensions"].push_back(j);
  }
  ctx.emit("--sweep-design", {design.dump()}, at);
}

// One SLA filter of a YAML sweep's sla_filters: "tag:stat:op:threshold" as written, or
// {metric_tag (or metric), stat, op, threshold}.
std::optional<std::string> yaml_sla_filter(Ctx& ctx, const At& at) {
  if (at.node.IsScalar()) return ctx.text(at);
  if (!at.node.IsMap() || !ctx.check_keys(at, {"metric_tag", "metric", "stat", "op", "threshold"}))
    return std::nullopt;
  std::string parts;
  for (const char* key : {"metric_tag", "stat", "op", "threshold"}) {
    YAML::Node n = Ctx::get(at.node, key);
    if (!n && std::string(key) == "metric_tag") n = Ctx::get(at.node, "metric");
    if (!n) {
      ctx.error(at, std::string("a filter needs ") + key);
      return std::nullopt;
    }
    auto v =
        std::string(key) == "threshold" ? ctx.number(at.child(n, key)) : ctx.text(at.child(n, key));
    if (!v) return std::nullopt;
    parts += (parts.empty() ? "" : ":") + *v;
  }
  return parts;
}

// sla_filters (a list) and sla ({tag: {stat: {op: value}}}) as --search-sla words.
void translate_sla_filters(Ctx& ctx, const At& at) {
  if (const YAML::Node list = Ctx::get(at.node, "sla_filters"); list && !list.IsNull()) {
    const At la = at.child(list, "sla_filters");
    if (!list.IsSequence()) return ctx.error(la, "expected a list of filters");
    for (std::size_t k = 0; k < list.size(); ++k)
      if (auto f = yaml_sla_filter(ctx, la.child(list[k], std::to_string(k))))
        ctx.emit("--search-sla", {*f}, la);
  }
  const YAML::Node sla = Ctx::get(at.node, "sla");
  if (!sla || sla.IsNull()) return;
  const At sa = at.child(sla, "sla");
  if (!sla.IsMap()) return ctx.error(sa, "expected {metric_tag: {stat: {op: threshold}}}");
  for (const auto& tag : sla)
    for (const auto& stat : tag.second)
      for (const auto& op : stat.second) {
        const At v = sa.child(
            op.second, tag.first.Scalar() + "." + stat.first.Scalar() + "." + op.first.Scalar());
        if (auto n = ctx.number(v))
          ctx.emit(
              "--search-sla",
              {tag.first.Scalar() + ":" + stat.first.Scalar() + ":" + op.first.Scalar() + ":" + *n},
              v);
      }
}

// An adaptive_search sweep as the --search-* words (one objective; the stop rules at AIPerf
// 0.11's defaults, which are inferperf's only ones).
void translate_adaptive_search(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"type",
                           "planner",
                           "search_space",
                           "objectives",
                           "outcome_constraints",
                           "max_iterations",
                           "n_initial_points",
                           "plateau_window",
                           "plateau_threshold",
                           "improvement_patience",
                           "random_seed",
                           "optuna_sampler",
                           "optuna_acquisition",
                           "optuna_terminator",
                           "objective_pooling",
                           "cooldown_seconds",
                           "sla_filters",
                           "sla",
                           "post_process",
                           "recipe_name"}))
    return;
  ctx.text_flag(at, "planner", "--search-planner");
  ctx.number_flag(at, "max_iterations", "--search-max-iterations");
  ctx.number_flag(at, "n_initial_points", "--search-initial-points");
  ctx.number_flag(at, "random_seed", "--search-random-seed");
  ctx.text_flag(at, "objective_pooling", "--search-percentile-pooling");
  ctx.duration_flag(at, "cooldown_seconds", "--sweep-cooldown-seconds");
  const YAML::Node space = Ctx::get(at.node, "search_space");
  const At sp = at.child(space, "search_space");
  if (!space || !space.IsSequence() || space.size() == 0)
    return ctx.error(sp, "expected a list of dimensions ({path, lo, hi, kind})");
  for (std::size_t k = 0; k < space.size(); ++k) {
    const At d = sp.child(space[k], std::to_string(k));
    if (!ctx.check_keys(d, {"path", "lo", "hi", "kind", "prior"})) continue;
    const YAML::Node pn = Ctx::get(space[k], "path");
    const YAML::Node lo = Ctx::get(space[k], "lo"), hi = Ctx::get(space[k], "hi");
    if (!pn || !lo || !hi) {
      ctx.error(d, "a dimension needs path, lo and hi");
      continue;
    }
    const auto path = ctx.text(d.child(pn, "path"));
    const auto l = ctx.number(d.child(lo, "lo")), h = ctx.number(d.child(hi, "hi"));
    if (!path || !l || !h) continue;
    std::string word = sweep_target(*path).canonical + ":" + *l + "," + *h;
    if (const YAML::Node kind = Ctx::get(space[k], "kind"); kind && !kind.IsNull())
      if (auto v = ctx.text(d.child(kind, "kind"))) word += ":" + *v;
    ctx.emit("--search-space", {word}, d);
  }
  const YAML::Node objectives = Ctx::get(at.node, "objectives");
  const At oa = at.child(objectives, "objectives");
  if (!objectives || !objectives.IsSequence() || objectives.size() != 1)
    return ctx.refuse(oa, "inferperf's planners optimise one objective: give exactly one");
  const At o = oa.child(objectives[0], "0");
  if (ctx.check_keys(o, {"metric", "stat", "direction", "threshold"})) {
    ctx.text_flag(o, "metric", "--search-metric");
    ctx.text_flag(o, "stat", "--search-stat");
    ctx.text_flag(o, "direction", "--search-direction");
  }
  translate_sla_filters(ctx, at);
  ctx.refuse_unless_noop(at, "outcome_constraints",
                         "outcome constraints are BoTorch's; give them as sla_filters");
  // Only AIPerf 0.11's defaults are inferperf's: a different value is refused, not ignored.
  const auto only = [&](const char* key, const char* value, const char* why) {
    const YAML::Node n = Ctx::get(at.node, key);
    if (!n || n.IsNull()) return;
    auto v = ctx.text(at.child(n, key));
    if (v && *v != value) ctx.refuse(at.child(n, key), why);
  };
  only("plateau_window", "8", "inferperf's plateau rule looks at 8 iterations");
  only("plateau_threshold", "0.01", "inferperf's plateau rule is 1 %");
  only("improvement_patience", "10", "inferperf's patience is 10 iterations");
  only("optuna_sampler", "botorch", "the optuna planner's samplers are not in inferperf");
  only("optuna_terminator", "none", "the optuna planner's terminators are not in inferperf");
  ctx.refuse_unless_noop(at, "optuna_acquisition", "BoTorch acquisitions are not in inferperf");
  ctx.refuse_unless_noop(at, "post_process", "post-processing comes with --search-recipe");
  ctx.refuse_unless_noop(at, "recipe_name", "give the recipe as --search-recipe");
}

}  // namespace

void translate_sweep(Ctx& ctx, const At& at) {
  const YAML::Node t = Ctx::get(at.node, "type");
  if (!t) return ctx.error(at, "a sweep needs a type (grid, zip, sobol or latin_hypercube)");
  auto type = ctx.text(at.child(t, "type"));
  if (!type) return;
  for (char& c : *type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (*type == "sobol" || *type == "latin_hypercube") return translate_design(ctx, at, *type);
  if (*type == "adaptive_search") return translate_adaptive_search(ctx, at);
  if (*type != "grid" && *type != "zip") {
    ctx.refuse(at.child(t, "type"),
               "'" + *type +
                   "' sweeps are not read from YAML; give scenarios as --variant on the "
                   "command line");
    return;
  }
  if (!ctx.check_keys(at, {"type", "parameters", "sla_filters", "sla", "cooldown_seconds",
                           "iteration_order", "same_seed"}))
    return;
  ctx.out.sweep_type = *type;
  if (*type == "zip") ctx.emit("--sweep-type", {"zip"}, at.child(t, "type"));
  // What every sweep may carry (AIPerf 0.11): filters judging its points, the pause between
  // points, the trials' order and the one seed for all.
  translate_sla_filters(ctx, at);
  ctx.duration_flag(at, "cooldown_seconds", "--sweep-cooldown-seconds");
  ctx.text_flag(at, "iteration_order", "--parameter-sweep-mode");
  ctx.pair_flag(at, "same_seed", "--parameter-sweep-same-seed", "--no-parameter-sweep-same-seed");
  const YAML::Node params = Ctx::get(at.node, "parameters");
  const At pa = at.child(params, "parameters");
  if (!params || !params.IsMap() || params.size() == 0)
    return ctx.error(pa, "expected a mapping of parameter paths to lists of values");
  for (const auto& kv : params) {
    const std::string key = kv.first.Scalar();
    const At p = pa.child(kv.second, key);
    const SweepTarget target = sweep_target(key);
    const std::string& flag = target.flag;
    if (flag.empty()) {
      ctx.refuse(p,
                 "inferperf sweeps only concurrency, prefill_concurrency, rate, requests, "
                 "duration, sessions, users, isl/osl mean and stddev, and turns mean");
      continue;
    }
    if (!kv.second.IsSequence() || kv.second.size() == 0) {
      ctx.error(p, "expected a list of values");
      continue;
    }
    YamlSweepAxis axis{key, target.path, target.canonical, flag, {}};
    for (std::size_t k = 0; k < kv.second.size(); ++k) {
      const At item = p.child(kv.second[k], std::to_string(k));
      auto v = flag == "--benchmark-duration" ? ctx.duration(item) : ctx.number(item);
      if (v) axis.values.push_back(*v);
    }
    if (axis.values.size() != kv.second.size()) continue;
    std::string joined;
    for (const auto& v : axis.values) joined += (joined.empty() ? "" : ",") + v;
    ctx.emit(flag, {joined}, p);
    ctx.out.sweep.push_back(std::move(axis));
  }
}

}  // namespace inferperf::config::yaml
