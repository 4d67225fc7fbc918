#include "sweep/sweep_args.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <set>

#include "config/enum_token.hpp"
#include "config/numeric_ranges.hpp"
#include "config/run_config.hpp"
#include "core/error.hpp"
#include "sweep/confidence.hpp"
#include "sweep/design_plan.hpp"
#include "sweep/sla.hpp"
#include "sweep/sweep_words.hpp"
#include "sweep/variants.hpp"

namespace inferperf::sweep {

namespace {

using namespace detail;

void take_num_profile_runs(SweepFlagWord& w, SweepOptions& o) {
  if (auto n = w.number()) o.num_profile_runs = static_cast<int>(*n);
}

void take_confidence_level(SweepFlagWord& w, SweepOptions& o) {
  if (auto d = w.number()) o.confidence_level = *d;
}

void take_sweep_type(SweepFlagWord& w, SweepOptions& o) {
  auto v = w.value();
  if (!v) return;
  // Any spelling AIPerf 0.11 accepts (GRID, Zip); stored as the member name.
  const std::string type = config::normalise_enum_token(*v);
  if (type != "grid" && type != "zip") {
    w.errors.push_back("--sweep-type: '" + *v + "' is not grid or zip");
    return;
  }
  o.sweep_type = type;
}

void take_sweep_mode(SweepFlagWord& w, SweepOptions& o) {
  auto v = w.value();
  if (!v) return;
  const std::string mode = config::normalise_enum_token(*v);
  if (mode != "repeated" && mode != "independent") {
    w.errors.push_back("--parameter-sweep-mode: '" + *v + "' is not repeated or independent");
    return;
  }
  o.sweep_mode = mode;
}

void take_convergence_word(SweepFlagWord& w, std::string& target,
                           const std::vector<std::string>& allowed) {
  auto v = w.value();
  if (!v) return;
  const std::string token =
      w.flag == "--convergence-metric" ? *v : config::normalise_enum_token(*v);
  std::string as_typed = token;
  std::replace(as_typed.begin(), as_typed.end(), '-', '_');
  if (allowed.empty() && !is_metric_tag(token)) {
    w.errors.push_back(
        fmt::format("{}: '{}' is not a metric tag (lower-case letters, digits and _)", w.flag,
                    core::excerpt(*v)));
    return;
  }
  if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), as_typed) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    w.errors.push_back(fmt::format("{}: '{}' is not one of {}", w.flag, core::excerpt(*v), list));
    return;
  }
  target = as_typed;
}

// --convergence-stat/-mode/-threshold: remembered, so that one without --convergence-metric is
// refused rather than ignored.
void note_convergence_knob(SweepFlagWord& w, SweepOptions& o) {
  if (!o.convergence.knob_given) o.convergence.knob_given = w.flag;
}

void take_convergence_threshold(SweepFlagWord& w, SweepOptions& o) {
  auto v = w.value();
  if (!v) return;
  const auto d = parse_number(*v);
  if (!d || *d <= 0 || *d >= 1) {
    w.errors.push_back(
        fmt::format("--convergence-threshold: '{}' is not a number between 0 and 1 "
                    "(both excluded)",
                    core::excerpt(*v)));
    return;
  }
  o.convergence.threshold = *d;
}

// The orchestration flags: each is taken off the profile command line into SweepOptions.
struct OrchestrationFlag {
  const char* flag;
  void (*take)(SweepFlagWord&, SweepOptions&);
};

const OrchestrationFlag* orchestration_flag(const std::string& flag) {
  using W = SweepFlagWord;
  using O = SweepOptions;
  static const OrchestrationFlag k[] = {
      {"--num-profile-runs", take_num_profile_runs},
      {"--profile-run-cooldown-seconds",
       [](W& w, O& o) { w.take_seconds(o.profile_run_cooldown_s); }},
      {"--sweep-cooldown-seconds", [](W& w, O& o) { w.take_seconds(o.sweep_cooldown_s); }},
      // AIPerf 0.11's name for the pause between variations.
      {"--parameter-sweep-cooldown-seconds",
       [](W& w, O& o) {
         if (auto d = w.number("--sweep-cooldown-seconds")) o.sweep_cooldown_s = *d;
       }},
      {"--confidence-level", take_confidence_level},
      {"--sweep-type", take_sweep_type},
      {"--parameter-sweep-mode", take_sweep_mode},
      {"--parameter-sweep-same-seed", [](W& w, O& o) { w.take_switch(o.sweep_same_seed, true); }},
      {"--no-parameter-sweep-same-seed",
       [](W& w, O& o) { w.take_switch(o.sweep_same_seed, false); }},
      {"--profile-run-disable-warmup-after-first",
       [](W& w, O& o) { w.take_switch(o.disable_warmup_after_first, true); }},
      {"--no-profile-run-disable-warmup-after-first",
       [](W& w, O& o) { w.take_switch(o.disable_warmup_after_first, false); }},
      {"--set-consistent-seed", [](W& w, O& o) { w.take_switch(o.consistent_seed, true); }},
      {"--no-set-consistent-seed", [](W& w, O& o) { w.take_switch(o.consistent_seed, false); }},
      {"--vary-seed-per-trial", [](W& w, O& o) { w.take_switch(o.vary_seed_per_trial, true); }},
      {"--no-vary-seed-per-trial", [](W& w, O& o) { w.take_switch(o.vary_seed_per_trial, false); }},
      {"--cache-salt-per-run", [](W& w, O& o) { w.take_switch(o.cache_salt_per_run, true); }},
      {"--auto-plot",
       [](W& w, O& o) {
         w.take_switch(o.auto_plot, true);
         o.auto_plot_given = true;
       }},
      {"--no-auto-plot",
       [](W& w, O& o) {
         w.take_switch(o.auto_plot, false);
         o.auto_plot_given = true;
       }},
      {"--plot-required", [](W& w, O& o) { w.take_switch(o.plot_required, true); }},
      // inferperf prints one line per run and no live per-point table: nothing to turn off.
      {"--no-sweep-table",
       [](W& w, O&) {
         bool ignored = false;
         w.take_switch(ignored, true);
       }},
      {"--dry-run", [](W& w, O& o) { w.take_switch(o.dry_run, true); }},
      {"--artifact-dir",
       [](W& w, O& o) {
         if (auto v = w.value()) o.artifact_dir = *v;
       }},
      {"--output-artifact-dir",
       [](W& w, O& o) {
         if (auto v = w.value()) o.artifact_dir = *v;
       }},
      {"--random-seed",
       [](W& w, O& o) {
         if (auto v = w.value()) o.random_seed = *v;
       }},
      {"--convergence-metric",
       [](W& w, O& o) {
         std::string tag;
         take_convergence_word(w, tag, {});
         if (!tag.empty()) o.convergence.metric = tag;
       }},
      {"--convergence-stat",
       [](W& w, O& o) {
         note_convergence_knob(w, o);
         take_convergence_word(w, o.convergence.stat,
                               {"avg", "p50", "p90", "p95", "p99", "min", "max"});
       }},
      {"--convergence-mode",
       [](W& w, O& o) {
         note_convergence_knob(w, o);
         take_convergence_word(w, o.convergence.mode, {"ci_width", "cv", "distribution"});
       }},
      {"--convergence-threshold",
       [](W& w, O& o) {
         note_convergence_knob(w, o);
         take_convergence_threshold(w, o);
       }},
  };
  for (const auto& f : k) {
    if (flag == f.flag) return &f;
  }
  return nullptr;
}

// The values of one swept flag's comma list, each checked and made canonical; nullopt when any
// is bad.
std::optional<SweepParam> parse_sweep_list(const Sweepable& s, const std::string& flag,
                                           const std::string& list,
                                           std::vector<std::string>& errors) {
  const std::string path = s.path;
  SweepParam p{s.name, flag, {}, path, path.substr(path.rfind('.') + 1)};
  std::set<std::string> unique;
  bool ok = true;
  for (const auto& item : split_commas(list)) {
    const std::optional<std::string> canonical = canonical_sweep_value(s, item);
    if (!canonical) {
      errors.push_back(fmt::format("{}: '{}' in '{}' is not a {} {}", flag, item, list,
                                   s.integer ? "whole number" : "number",
                                   s.zero_ok ? "of 0 or more" : "above 0"));
      ok = false;
      continue;
    }
    if (!unique.insert(*canonical).second) {
      errors.push_back(fmt::format("{}: '{}' appears twice in '{}'", flag, item, list));
      ok = false;
    }
    p.values.push_back(*canonical);
  }
  if (!ok) return std::nullopt;
  return p;
}

// The sweepable parameters seen so far, by name: a list plus another value is ambiguous.
struct SweptNames {
  std::set<std::string> seen;    // given at all
  std::set<std::string> listed;  // given a comma list
};

// A sweepable flag: a comma list becomes a SweepParam; one value stays on the command line.
void take_sweepable(const Sweepable& s, SweepFlagWord& w, SweptNames& swept, SweepArgs& out) {
  const std::size_t flag_at = w.at;
  auto v = w.value();
  if (!v) return;
  const bool again = !swept.seen.insert(s.name).second;
  if (v->find(',') == std::string::npos) {
    if (swept.listed.count(s.name)) {
      out.errors.push_back(w.flag + " is swept and given again");
    }
    // One value: an ordinary flag for the profile parser to check.
    for (std::size_t k = flag_at; k <= w.at; ++k) out.base.push_back(w.args[k]);
    return;
  }
  if (again) {
    out.errors.push_back(w.flag + " is swept and given again");
    return;
  }
  swept.listed.insert(s.name);
  if (auto p = parse_sweep_list(s, w.flag, *v, out.errors)) out.params.push_back(std::move(*p));
}

// A --random-seed that is not a whole number >= 0 goes back to the profile parser for its
// message; the orchestrator only needs it as a number.
void hand_back_unusable_seed(SweepArgs& out) {
  auto& seed_word = out.options.random_seed;
  const auto seed = seed_word ? parse_integer(*seed_word) : std::nullopt;
  if (seed_word && (!seed || *seed < 0)) {
    out.base.push_back("--random-seed");
    out.base.push_back(*seed_word);
    seed_word.reset();
  }
}

// AIPerf 0.11 sizes the dataset from the largest value of a swept --num-conversations (else of a
// swept --request-count) when --num-dataset-entries is not given, the same for every point; each
// child here sees one value, so the largest is handed to all of them.
void pin_dataset_entries(SweepArgs& out) {
  const auto typed = [&](std::initializer_list<std::string_view> names) {
    return std::any_of(out.base.begin(), out.base.end(), [&](const std::string& w) {
      return std::any_of(names.begin(), names.end(), [&](std::string_view n) {
        return w == n || (w.starts_with(n) && w.size() > n.size() && w[n.size()] == '=');
      });
    });
  };
  if (typed({"--num-dataset-entries", "--num-prompts"})) return;
  const SweepParam* from = nullptr;
  for (const auto& p : out.params) {
    if (p.name == "num_conversations") from = &p;
  }
  if (!from && !typed({"--num-sessions", "--num-conversations", "--conversation-num"})) {
    for (const auto& p : out.params) {
      if (p.name == "request_count") from = &p;
    }
  }
  if (!from) return;
  long long most = 0;
  for (const auto& v : from->values) {
    if (const auto n = parse_integer(v)) most = std::max<long long>(most, *n);
  }
  if (most < 1) return;
  out.base.push_back("--num-dataset-entries");
  out.base.push_back(std::to_string(std::min<long long>(most, 10'000'000)));
}

}  // namespace

bool is_orchestration_flag(const std::string& flag) {
  return orchestration_flag(flag) != nullptr;
}

SweepArgs extract_sweep_args(const std::vector<std::string>& args) {
  SweepArgs out;
  if (args.empty() || args.front() != "profile") {
    out.base = args;
    return out;
  }
  SweptNames swept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (!word.starts_with("--")) {
      out.base.push_back(word);
      continue;
    }
    SweepFlagWord w = read_sweep_flag_word(args, i, out.errors);
    if (const OrchestrationFlag* f = orchestration_flag(w.flag)) {
      f->take(w, out.options);
      continue;
    }
    if (take_search_flag(w, out.search)) continue;
    if (w.flag == "--variant" || w.flag == "--sweep-variant") {
      if (auto v = w.value()) out.variants.push_back(*v);
      continue;
    }
    if (w.flag == "--sweep-design") {
      if (auto v = w.value()) out.design = *v;
      continue;
    }
    if (const Sweepable* s = sweepable_for(w.flag)) {
      take_sweepable(*s, w, swept, out);
    } else {
      out.base.push_back(word);
    }
  }
  hand_back_unusable_seed(out);
  if (const auto& c = out.options.convergence; c.knob_given && !c.enabled())
    out.errors.push_back(*c.knob_given + " needs --convergence-metric (the metric to watch)");
  if (out.options.sweep_same_seed && !out.options.random_seed)
    out.errors.push_back(
        "--parameter-sweep-same-seed needs --random-seed (the seed every point "
        "reuses)");
  std::stable_sort(out.params.begin(), out.params.end(),
                   [](const SweepParam& a, const SweepParam& b) { return a.path < b.path; });
  resolve_variants(out);
  resolve_design(out);
  resolve_search_args(out);
  if (out.errors.empty()) pin_dataset_entries(out);
  return out;
}

std::vector<std::string> child_args(const SweepArgs& s, const RunArgs& run) {
  std::vector<std::string> out = s.base;
  for (std::size_t k = 0; k < s.params.size() && k < run.point_values.size(); ++k) {
    if (run.point_values[k].empty()) continue;
    if (s.params[k].inline_value) {
      out.push_back(s.params[k].flag + "=" + run.point_values[k]);
      continue;
    }
    out.push_back(s.params[k].flag);
    out.push_back(run.point_values[k]);
  }
  if (!run.artifact_dir.empty()) {
    out.push_back("--artifact-dir");
    out.push_back(run.artifact_dir);
  }
  if (run.random_seed) {
    out.push_back("--random-seed");
    out.push_back(*run.random_seed);
  }
  if (run.no_warmup) out.push_back("--no-warmup");
  if (run.cache_salt) {
    // Last: --extra-inputs takes every word up to the next flag.
    out.push_back("--extra-inputs");
    out.push_back(cache_salt_extra_input(*run.cache_salt));
  }
  return out;
}

bool pin_warmup_concurrency(SweepArgs& s, const config::RunConfig& point) {
  const bool concurrency_swept =
      std::any_of(s.params.begin(), s.params.end(),
                  [](const SweepParam& p) { return p.name == "concurrency"; });
  const auto& load = point.load;
  // warmup.request_rate is resolved: set for a rate warmup, its own or inherited.
  if (!concurrency_swept || !load.warmup_enabled || load.warmup.request_rate ||
      point.set_options.count("--warmup-concurrency") > 0)
    return false;
  s.base.push_back("--warmup-concurrency");
  s.base.push_back("1");
  return true;
}

std::string cache_salt_extra_input(const std::string& salt) {
  return nlohmann::json{{"cache_salt", salt}}.dump();
}

std::string cache_salt_from_bits(std::uint64_t bits) {
  return fmt::format("{:012x}", bits & 0xffffffffffffULL);
}

std::string random_cache_salt() {
  static std::mt19937_64 gen = [] {
    if (const char* seed = std::getenv("INFERPERF_CACHE_SALT_SEED")) {
      if (const auto v = parse_integer(seed))
        return std::mt19937_64(static_cast<std::uint64_t>(*v));
      std::cerr << "warning: INFERPERF_CACHE_SALT_SEED='" << seed
                << "' is not a whole number; the cache salts are random\n";
    }
    std::random_device rd;
    return std::mt19937_64((static_cast<std::uint64_t>(rd()) << 32) ^ rd());
  }();
  return cache_salt_from_bits(gen());
}

}  // namespace inferperf::sweep
