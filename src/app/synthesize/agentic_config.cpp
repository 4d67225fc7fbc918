#include "app/synthesize/agentic_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace inferperf::app::agentic {

namespace {

using nlohmann::json;

core::Error agentic_error(const std::string& path, const std::string& message) {
  core::Error e{core::ErrorKind::kConfig, message};
  e.field = path;
  return e;
}

std::string agentic_join(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

// One JSON object's keys, read by name; whatever was not read is reported as ignored.
class AgenticObject {
 public:
  AgenticObject(const json& j, std::string path) : j_(j), path_(std::move(path)) {}

  std::string path(const std::string& key) const { return agentic_join(path_, key); }
  // The value under any of `keys` (absent or null: nullptr); marks them read.
  const json* get(std::initializer_list<const char*> keys) {
    const json* found = nullptr;
    for (const char* k : keys) {
      read_.emplace_back(k);
      if (auto it = j_.find(k); it != j_.end() && !it->is_null() && !found) found = &*it;
    }
    return found;
  }
  void unread(std::vector<std::string>* ignored) const {
    if (!ignored) return;
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (std::find(read_.begin(), read_.end(), it.key()) == read_.end())
        ignored->push_back(path(it.key()));
  }

 private:
  const json& j_;
  std::string path_;
  std::vector<std::string> read_;
};

std::optional<core::Error> agentic_number(const json* v, const std::string& path, double& out) {
  if (!v) return std::nullopt;
  if (!v->is_number() || v->is_boolean())
    return agentic_error(path, fmt::format("must be a number, got {}", v->dump()));
  out = v->get<double>();
  if (!std::isfinite(out)) return agentic_error(path, "must be finite");
  return std::nullopt;
}

std::optional<core::Error> agentic_integer(const json* v, const std::string& path, long long& out) {
  if (!v) return std::nullopt;
  const double d = v->is_number_float() ? v->get<double>() : 0.0;
  if (!v->is_number() || v->is_boolean() || d != std::floor(d) || std::fabs(d) >= 9.2e18)
    return agentic_error(path, fmt::format("must be an integer, got {}", v->dump()));
  out = v->is_number_integer() ? v->get<long long>() : static_cast<long long>(d);
  return std::nullopt;
}

std::optional<core::Error> agentic_at_least(const std::string& path, double v, double min,
                                            bool strict) {
  if (strict ? v > min : v >= min) return std::nullopt;
  return agentic_error(path, fmt::format("must be {} {} (got {})", strict ? ">" : ">=", min, v));
}

std::optional<core::Error> agentic_unit(const std::string& path, double v) {
  if (v >= 0 && v <= 1) return std::nullopt;
  return agentic_error(path, fmt::format("must be between 0 and 1 (got {})", v));
}

std::optional<core::Error> agentic_object(const json* v, const std::string& path) {
  if (v && !v->is_object())
    return agentic_error(path, fmt::format("must be an object, got {}", v->dump()));
  return std::nullopt;
}

// A lognormal object, over `out`'s current values; mean and median are required when the object
// is given (as AIPerf's model requires them).
std::optional<core::Error> agentic_lognormal(const json& j, const std::string& path, Lognormal& out,
                                             std::vector<std::string>* ignored,
                                             double* bias = nullptr) {
  AgenticObject o(j, path);
  for (const char* k : {"mean", "median"})
    if (!o.get({k})) return agentic_error(o.path(k), "is required");
  out = Lognormal{};
  if (auto e = agentic_number(o.get({"mean"}), o.path("mean"), out.mean)) return e;
  if (auto e = agentic_number(o.get({"median"}), o.path("median"), out.median)) return e;
  if (auto e = agentic_at_least(o.path("mean"), out.mean, 0, true)) return e;
  if (auto e = agentic_at_least(o.path("median"), out.median, 0, true)) return e;
  if (out.mean < out.median)
    return agentic_error(o.path("mean"), fmt::format("mean ({}) must be >= median ({}) for a "
                                                     "lognormal",
                                                     out.mean, out.median));
  for (const char* k : {"min", "max"}) {
    if (const json* v = o.get({k})) {
      double d = 0;
      if (auto e = agentic_number(v, o.path(k), d)) return e;
      if (auto e = agentic_at_least(o.path(k), d, 0, true)) return e;
      (std::string_view(k) == "min" ? out.min : out.max) = d;
    }
  }
  if (out.min && out.max && *out.min > *out.max)
    return agentic_error(o.path("min"),
                         fmt::format("min ({}) must be <= max ({})", *out.min, *out.max));
  const json* mu = o.get({"mu"});
  const json* sigma = o.get({"sigma"});
  if (!mu != !sigma) return agentic_error(o.path(mu ? "sigma" : "mu"), "mu and sigma go together");
  if (mu) {
    if (auto e = agentic_number(mu, o.path("mu"), out.mu)) return e;
    if (auto e = agentic_number(sigma, o.path("sigma"), out.sigma)) return e;
    if (auto e = agentic_at_least(o.path("sigma"), out.sigma, 0, false)) return e;
  } else {
    out.mu = std::log(out.median);
    const double ratio = out.mean / out.median;
    out.sigma = ratio > 1.0 ? std::sqrt(2.0 * std::log(ratio)) : 0.0;
  }
  if (bias) {
    if (auto e = agentic_number(o.get({"bias"}), o.path("bias"), *bias)) return e;
    if (auto e = agentic_at_least(o.path("bias"), *bias, 0, true)) return e;
  }
  o.unread(ignored);
  return std::nullopt;
}

std::optional<core::Error> agentic_delay(const json& j, MixtureDelay& d,
                                         std::vector<std::string>* ignored) {
  AgenticObject o(j, "inter_turn_delay");
  if (auto e = agentic_number(o.get({"agentic_fraction"}), o.path("agentic_fraction"),
                              d.agentic_fraction))
    return e;
  if (auto e = agentic_unit(o.path("agentic_fraction"), d.agentic_fraction)) return e;
  for (const char* k : {"agentic_delay", "human_delay"}) {
    const json* v = o.get({k});
    if (auto e = agentic_object(v, o.path(k))) return e;
    Lognormal& target = std::string_view(k) == "agentic_delay" ? d.agentic : d.human;
    if (v)
      if (auto e = agentic_lognormal(*v, o.path(k), target, ignored)) return e;
  }
  if (const json* v = o.get({"max"})) {
    double m = 0;
    if (auto e = agentic_number(v, o.path("max"), m)) return e;
    if (auto e = agentic_at_least(o.path("max"), m, 0, false)) return e;
    d.max = m;
  }
  o.unread(ignored);
  return std::nullopt;
}

std::optional<core::Error> agentic_reset(const json& j, ResetRule& r,
                                         std::vector<std::string>* ignored) {
  AgenticObject o(j, "reset");
  if (auto e = agentic_number(o.get({"base_probability"}), o.path("base_probability"),
                              r.base_probability))
    return e;
  if (auto e = agentic_unit(o.path("base_probability"), r.base_probability)) return e;
  if (auto e =
          agentic_number(o.get({"context_scaling"}), o.path("context_scaling"), r.context_scaling))
    return e;
  if (auto e = agentic_at_least(o.path("context_scaling"), r.context_scaling, 1, false)) return e;
  o.unread(ignored);
  return std::nullopt;
}

std::optional<core::Error> agentic_turns(const json& j, TurnCount& t,
                                         std::vector<std::string>* ignored) {
  AgenticObject o(j, "turns");
  for (auto [k, v] : {std::pair{"mean", &t.mean}, std::pair{"median", &t.median},
                      std::pair{"min", &t.min}, std::pair{"max", &t.max}}) {
    const json* x = o.get({k});
    if (!x) return agentic_error(o.path(k), "is required");
    if (auto e = agentic_integer(x, o.path(k), *v)) return e;
    if (auto e = agentic_at_least(o.path(k), static_cast<double>(*v), 0, true)) return e;
  }
  if (const json* v = o.get({"allow_truncation"})) {
    if (!v->is_boolean())
      return agentic_error(o.path("allow_truncation"), "must be true or false, got " + v->dump());
    t.allow_truncation = v->get<bool>();
  }
  if (const json* v = o.get({"max_session_attempts"})) {
    long long n = 0;
    if (auto e = agentic_integer(v, o.path("max_session_attempts"), n)) return e;
    if (auto e = agentic_at_least(o.path("max_session_attempts"), static_cast<double>(n), 1, false))
      return e;
    t.max_session_attempts = n;
  }
  if (t.mean < t.median)
    return agentic_error(o.path("mean"),
                         fmt::format("mean ({}) must be >= median ({})", t.mean, t.median));
  if (t.min > t.median)
    return agentic_error(o.path("min"),
                         fmt::format("min ({}) must be <= median ({})", t.min, t.median));
  if (t.mean > t.max)
    return agentic_error(o.path("max"),
                         fmt::format("mean ({}) must be <= max ({})", t.mean, t.max));
  if (t.allow_truncation && t.max_session_attempts)
    return agentic_error(o.path("max_session_attempts"),
                         "cannot be set when allow_truncation is true");
  if (!t.allow_truncation && !t.max_session_attempts) t.max_session_attempts = 100;
  o.unread(ignored);
  return std::nullopt;
}

std::optional<core::Error> agentic_cache(const json& j, CacheLayers& c,
                                         std::vector<std::string>* ignored) {
  AgenticObject o(j, "cache");
  for (auto [k, v] : {std::pair{"layer1_tokens", &c.layer1_tokens},
                      std::pair{"layer1_5_tokens", &c.layer1_5_tokens}}) {
    if (auto e = agentic_integer(o.get({k}), o.path(k), *v)) return e;
    if (auto e = agentic_at_least(o.path(k), static_cast<double>(*v), 0, false)) return e;
  }
  const json* l2 = o.get({"layer2"});
  if (auto e = agentic_object(l2, o.path("layer2"))) return e;
  if (l2)
    if (auto e = agentic_lognormal(*l2, o.path("layer2"), c.layer2, ignored)) return e;
  const json* groups = o.get({"layer1_5_groups"});
  if (auto e = agentic_object(groups, o.path("layer1_5_groups"))) return e;
  if (groups) {
    AgenticObject g(*groups, o.path("layer1_5_groups"));
    if (auto e = agentic_integer(g.get({"num_groups"}), g.path("num_groups"), c.num_groups))
      return e;
    if (auto e =
            agentic_at_least(g.path("num_groups"), static_cast<double>(c.num_groups), 1, false))
      return e;
    if (auto e = agentic_number(g.get({"zipf_alpha"}), g.path("zipf_alpha"), c.zipf_alpha))
      return e;
    if (auto e = agentic_at_least(g.path("zipf_alpha"), c.zipf_alpha, 0, false)) return e;
    g.unread(ignored);
  }
  o.unread(ignored);
  return std::nullopt;
}

// Turns mode must be able to reach its minimum turn count under the context limit.
std::optional<core::Error> agentic_turns_feasible(const Config& c) {
  const long long min_l2 = c.cache.layer2.min ? static_cast<long long>(*c.cache.layer2.min) : 1;
  const long long min_new = c.new_tokens.min ? static_cast<long long>(*c.new_tokens.min) : 1;
  const long long min_out =
      c.generation.max ? std::min<long long>(30, static_cast<long long>(*c.generation.max)) : 30;
  long long input = c.cache.layer1_tokens + c.cache.layer1_5_tokens + min_l2;
  if (input >= c.max_prompt_tokens)
    return agentic_error("turns",
                         "impossible: the smallest first context reaches max_prompt_tokens");
  if (c.turns->allow_truncation) return std::nullopt;
  for (long long t = 1; t < c.turns->min; ++t) {
    input += min_out + min_new;
    if (input >= c.max_prompt_tokens)
      return agentic_error("turns.min",
                           "impossible: that many turns cannot fit under "
                           "max_prompt_tokens");
  }
  return std::nullopt;
}

std::optional<core::Error> agentic_check_whole(const Config& c) {
  if (auto e = agentic_unit("restart_initial_probability", c.restart_initial_probability)) return e;
  if (c.restart_turn_min < 1)
    return agentic_error("restart_turn_range", "the minimum must be >= 1");
  if (c.restart_turn_max <= c.restart_turn_min)
    return agentic_error("restart_turn_range", "must be [min, max) with max > min");
  if (!c.turns) return std::nullopt;
  if (c.reset) return agentic_error("turns", "turns mode cannot be combined with reset");
  if (c.restart_initial_probability != 0.0)
    return agentic_error("turns", "turns mode cannot be combined with restart_initial_probability");
  return agentic_turns_feasible(c);
}

}  // namespace

Lognormal lognormal(double mean, double median) {
  Lognormal l;
  l.mean = mean;
  l.median = median;
  l.mu = std::log(median);
  const double ratio = mean / median;
  l.sigma = ratio > 1.0 ? std::sqrt(2.0 * std::log(ratio)) : 0.0;
  return l;
}

core::Result<Config> config_from_json(const json& j, std::vector<std::string>* ignored) {
  if (!j.is_object()) return agentic_error("", "the config must be a JSON object");
  Config c;
  AgenticObject o(j, "");
  o.get({"system_prompt_tokens"});  // a removed key AIPerf still accepts and drops
  auto sub = [&](std::initializer_list<const char*> keys) { return o.get(keys); };
  if (const json* v = sub({"new_tokens_per_turn", "newTokensPerTurn"})) {
    if (auto e = agentic_object(v, "new_tokens_per_turn")) return *e;
    if (auto e =
            agentic_lognormal(*v, "new_tokens_per_turn", c.new_tokens, ignored, &c.new_tokens_bias))
      return *e;
  }
  if (const json* v = sub({"generation_length", "generationLength"})) {
    if (auto e = agentic_object(v, "generation_length")) return *e;
    if (auto e = agentic_lognormal(*v, "generation_length", c.generation, ignored)) return *e;
  }
  if (const json* v = sub({"inter_turn_delay", "interTurnDelay"})) {
    if (auto e = agentic_object(v, "inter_turn_delay")) return *e;
    if (auto e = agentic_delay(*v, c.delay, ignored)) return *e;
  }
  const bool reset_given = j.contains("reset");
  if (const json* v = sub({"reset"})) {
    if (auto e = agentic_object(v, "reset")) return *e;
    if (auto e = agentic_reset(*v, *c.reset, ignored)) return *e;
  } else if (reset_given) {
    c.reset.reset();  // "reset": null
  }
  if (const json* v = sub({"turns"})) {
    if (auto e = agentic_object(v, "turns")) return *e;
    c.turns.emplace();
    if (auto e = agentic_turns(*v, *c.turns, ignored)) return *e;
    if (!reset_given) c.reset.reset();  // turns mode replaces the reset rule
  }
  for (auto [keys, target] :
       {std::pair{std::pair{"max_prompt_tokens", "maxPromptTokens"}, &c.max_prompt_tokens},
        std::pair{std::pair{"block_size", "blockSize"}, &c.block_size}}) {
    if (auto e = agentic_integer(sub({keys.first, keys.second}), keys.first, *target)) return *e;
    if (auto e = agentic_at_least(keys.first, static_cast<double>(*target), 1, false)) return *e;
  }
  if (const json* v = sub({"cache"})) {
    if (auto e = agentic_object(v, "cache")) return *e;
    if (auto e = agentic_cache(*v, c.cache, ignored)) return *e;
  }
  const json* p = sub({"restart_initial_probability", "restartInitialProbability"});
  if (auto e = agentic_number(p, "restart_initial_probability", c.restart_initial_probability))
    return *e;
  if (const json* f = sub({"restart_fraction"})) {  // AIPerf's older name for the same value
    double v = 0;
    if (auto e = agentic_number(f, "restart_fraction", v)) return *e;
    if (p && v != c.restart_initial_probability)
      return agentic_error("restart_fraction", "cannot differ from restart_initial_probability");
    c.restart_initial_probability = v;
  }
  if (const json* v = sub({"restart_turn_range", "restartTurnRange"})) {
    if (!v->is_array() || v->size() != 2)
      return agentic_error("restart_turn_range", "must be a list of two integers [min, max)");
    if (auto e = agentic_integer(&(*v)[0], "restart_turn_range[0]", c.restart_turn_min)) return *e;
    if (auto e = agentic_integer(&(*v)[1], "restart_turn_range[1]", c.restart_turn_max)) return *e;
  }
  o.unread(ignored);
  if (auto e = agentic_check_whole(c)) return *e;
  return c;
}

core::Result<Config> apply_caps(Config c, std::optional<long long> max_isl,
                                std::optional<long long> max_osl) {
  if (max_isl) c.max_prompt_tokens = *max_isl;
  if (max_osl) {
    c.generation.max = static_cast<double>(*max_osl);
    if (c.generation.min && *c.generation.min > *c.generation.max)
      return agentic_error("--max-osl", fmt::format("{} is below generation_length.min ({})",
                                                    *max_osl, *c.generation.min));
  }
  if (auto e = agentic_check_whole(c)) return *e;
  return c;
}

namespace {

nlohmann::ordered_json agentic_lognormal_json(const Lognormal& l) {
  nlohmann::ordered_json j;
  j["mu"] = l.mu;
  j["sigma"] = l.sigma;
  j["mean"] = l.mean;
  j["median"] = l.median;
  j["min"] = l.min ? json(*l.min) : json(nullptr);
  j["max"] = l.max ? json(*l.max) : json(nullptr);
  return j;
}

}  // namespace

nlohmann::ordered_json config_to_json(const Config& c) {
  nlohmann::ordered_json j;
  j["new_tokens_per_turn"] = agentic_lognormal_json(c.new_tokens);
  j["new_tokens_per_turn"]["bias"] = c.new_tokens_bias;
  j["generation_length"] = agentic_lognormal_json(c.generation);
  nlohmann::ordered_json& d = j["inter_turn_delay"];
  d["agentic_fraction"] = c.delay.agentic_fraction;
  d["agentic_delay"] = agentic_lognormal_json(c.delay.agentic);
  d["human_delay"] = agentic_lognormal_json(c.delay.human);
  d["max"] = c.delay.max ? json(*c.delay.max) : json(nullptr);
  j["reset"] = nullptr;
  if (c.reset) {
    j["reset"] = {{"base_probability", c.reset->base_probability},
                  {"context_scaling", c.reset->context_scaling}};
  }
  j["turns"] = nullptr;
  if (c.turns) {
    nlohmann::ordered_json t;
    t["mean"] = c.turns->mean;
    t["median"] = c.turns->median;
    t["min"] = c.turns->min;
    t["max"] = c.turns->max;
    t["allow_truncation"] = c.turns->allow_truncation;
    t["max_session_attempts"] =
        c.turns->max_session_attempts ? json(*c.turns->max_session_attempts) : json(nullptr);
    j["turns"] = std::move(t);
  }
  j["max_prompt_tokens"] = c.max_prompt_tokens;
  j["block_size"] = c.block_size;
  nlohmann::ordered_json& k = j["cache"];
  k["layer1_tokens"] = c.cache.layer1_tokens;
  k["layer1_5_tokens"] = c.cache.layer1_5_tokens;
  k["layer2"] = agentic_lognormal_json(c.cache.layer2);
  k["layer1_5_groups"] = {{"num_groups", c.cache.num_groups}, {"zipf_alpha", c.cache.zipf_alpha}};
  j["restart_initial_probability"] = c.restart_initial_probability;
  j["restart_turn_range"] = {c.restart_turn_min, c.restart_turn_max};
  return j;
}

}  // namespace inferperf::app::agentic
