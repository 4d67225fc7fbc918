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
#include "sweep/confidence.hpp"

namespace inferperf::sweep {

namespace {

// The twelve AIPerf 0.11 magic-list options: every spelling inferperf accepts for each, the
// config path AIPerf 0.11 maps the list to (§ sweeps in docs/sweeps.md), and whether its items
// are whole numbers (else floats).
struct Sweepable {
  const char* name;
  std::vector<std::string> flags;
  bool integer;
  const char* path;
  bool zero_ok = false;  // a standard deviation may be 0
};

const std::vector<Sweepable>& sweepables() {
  static const std::vector<Sweepable> k = {
      {"concurrency", {"--concurrency"}, true, "phases.profiling.concurrency"},
      {"prefill_concurrency",
       {"--prefill-concurrency"},
       true,
       "phases.profiling.prefill_concurrency"},
      {"request_rate", {"--request-rate"}, false, "phases.profiling.rate"},
      {"request_count", {"--request-count", "--num-requests"}, true, "phases.profiling.requests"},
      {"benchmark_duration", {"--benchmark-duration"}, false, "phases.profiling.duration"},
      {"num_conversations",
       {"--num-sessions", "--num-conversations", "--conversation-num"},
       true,
       "phases.profiling.sessions"},
      {"num_users", {"--num-users"}, true, "phases.profiling.users"},
      {"isl",
       {"--synthetic-input-tokens-mean", "--prompt-input-tokens-mean", "--isl"},
       true,
       "datasets.main.prompts.isl.mean"},
      {"isl_stddev",
       {"--synthetic-input-tokens-stddev", "--prompt-input-tokens-stddev", "--isl-stddev"},
       false,
       "datasets.main.prompts.isl.stddev",
       true},
      {"osl",
       {"--output-tokens-mean", "--prompt-output-tokens-mean", "--osl"},
       true,
       "datasets.main.prompts.osl.mean"},
      {"osl_stddev",
       {"--output-tokens-stddev", "--prompt-output-tokens-stddev", "--osl-stddev"},
       false,
       "datasets.main.prompts.osl.stddev",
       true},
      {"conversation_turn_mean",
       {"--conversation-turn-mean", "--session-turns-mean"},
       true,
       "datasets.main.turns.mean"},
  };
  return k;
}

const Sweepable* sweepable_for(const std::string& flag) {
  for (const auto& s : sweepables()) {
    if (std::find(s.flags.begin(), s.flags.end(), flag) != s.flags.end()) return &s;
  }
  return nullptr;
}

std::vector<std::string> split_commas(const std::string& v) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = v.find(',', start);
    // Items trimmed, as AIPerf 0.11 reads "1, 2, 4".
    out.push_back(config::trim_list_item(std::string_view(v).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::optional<double> parse_number(const std::string& s) {
  double v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> parse_integer(const std::string& s) {
  long long v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(const std::string& s) {
  if (s == "true" || s == "True" || s == "1") return true;
  if (s == "false" || s == "False" || s == "0") return false;
  return std::nullopt;
}

// One "--flag" or "--flag=value" word of the profile command line, read at args[at]; taking its
// value moves `at` past the words taken. Each bad value adds one line to `errors`.
struct SweepFlagWord {
  const std::vector<std::string>& args;
  std::size_t& at;
  std::vector<std::string>& errors;
  std::string flag;
  std::optional<std::string> inline_value;  // what follows '=' in the word

  // The value of a flag that takes one; nullopt (and an error) when it is missing.
  std::optional<std::string> value() {
    if (inline_value) return inline_value;
    if (at + 1 < args.size()) return args[++at];
    errors.push_back(flag + " needs a value");
    return std::nullopt;
  }

  // A switch with an optional "=true|false" (or a following true/false word).
  void take_switch(bool& target, bool value_if_bare) {
    if (inline_value) {
      auto b = parse_bool(*inline_value);
      if (!b) {
        errors.push_back(flag + ": '" + *inline_value + "' is not true or false");
        return;
      }
      target = value_if_bare ? *b : !*b;
      return;
    }
    if (at + 1 < args.size()) {
      if (auto b = parse_bool(args[at + 1])) {
        ++at;
        target = value_if_bare ? *b : !*b;
        return;
      }
    }
    target = value_if_bare;
  }

  // The value checked against the flag's range in the one table every numeric flag has
  // (config/numeric_ranges, docs/limits.md); nullopt (and its message) outside it.
  // `range_of`: the flag whose range applies (an alias's canonical flag); the message names the
  // flag as typed.
  std::optional<double> number(const char* range_of = nullptr) {
    auto v = value();
    if (!v) return std::nullopt;
    const config::NumericRange* range =
        config::find_numeric_range(range_of ? std::string(range_of) : flag);
    if (!range) {  // every orchestration flag is in the table (NumericRanges tests)
      errors.push_back(flag + " has no range");
      return std::nullopt;
    }
    const auto check = config::check_numeric_value(*range, flag, *v);
    if (!check.canonical) {
      errors.push_back(check.error);
      return std::nullopt;
    }
    return std::strtod(check.canonical->c_str(), nullptr);
  }

  void take_seconds(double& target) {
    if (auto d = number()) target = *d;
  }
};

SweepFlagWord read_sweep_flag_word(const std::vector<std::string>& args, std::size_t& at,
                                   std::vector<std::string>& errors) {
  const std::string& word = args[at];
  const auto eq = word.find('=');
  if (eq == std::string::npos) return {args, at, errors, word, std::nullopt};
  return {args, at, errors, word.substr(0, eq), word.substr(eq + 1)};
}

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
      {"--auto-plot", [](W& w, O& o) { w.take_switch(o.auto_plot, true); }},
      {"--no-auto-plot", [](W& w, O& o) { w.take_switch(o.auto_plot, false); }},
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
  };
  for (const auto& f : k) {
    if (flag == f.flag) return &f;
  }
  return nullptr;
}

// The --search-* options: each is taken off the profile command line into SearchArgs, then
// checked together by resolve_search.
struct SearchFlag {
  const char* flag;
  void (*take)(SweepFlagWord&, SearchArgs&);
};

std::optional<long long> whole_value(SweepFlagWord& w, long long lo, long long hi) {
  auto v = w.value();
  if (!v) return std::nullopt;
  const auto n = parse_integer(*v);
  if (!n || *n < lo || *n > hi) {
    w.errors.push_back(fmt::format("{}: '{}' is not a whole number from {} to {}", w.flag,
                                   core::excerpt(*v), lo, hi));
    return std::nullopt;
  }
  return n;
}

const SearchFlag* search_flag(const std::string& flag) {
  using W = SweepFlagWord;
  using A = SearchArgs;
  static const SearchFlag k[] = {
      {"--search-space",
       [](W& w, A& a) {
         if (auto v = w.value()) a.space.push_back(*v);
       }},
      {"--search-metric",
       [](W& w, A& a) {
         if (auto v = w.value()) a.metric = *v;
       }},
      {"--search-stat",
       [](W& w, A& a) {
         if (auto v = w.value()) a.stat = *v;
       }},
      {"--search-direction",
       [](W& w, A& a) {
         if (auto v = w.value()) a.direction = config::normalise_enum_token(*v);
       }},
      {"--search-max-iterations",
       [](W& w, A& a) {
         if (auto n = whole_value(w, 2, 200)) a.max_iterations = static_cast<int>(*n);
       }},
      {"--search-initial-points",
       [](W& w, A& a) {
         if (auto n = whole_value(w, 1, 1'000'000)) a.initial_points = static_cast<int>(*n);
       }},
      {"--search-random-seed",
       [](W& w, A& a) {
         if (auto n = whole_value(w, 0, std::numeric_limits<long long>::max())) a.random_seed = *n;
       }},
      {"--search-planner",
       [](W& w, A& a) {
         if (auto v = w.value()) a.planner = config::normalise_enum_token(*v);
       }},
      {"--search-sla",
       [](W& w, A& a) {
         if (auto v = w.value()) a.sla.push_back(*v);
       }},
  };
  for (const auto& f : k) {
    if (flag == f.flag) return &f;
  }
  return nullptr;
}

// The sweepable parameter a --search-space path names: its full path (phases.profiling.rate),
// or for the profiling phase the bare name AIPerf 0.11's YAML sweeps accept (rate).
const Sweepable* sweepable_for_path(const std::string& path) {
  for (const auto& s : sweepables()) {
    const std::string full = s.path;
    if (path == full) return &s;
    if (full.starts_with("phases.profiling.") && path == full.substr(full.rfind('.') + 1))
      return &s;
  }
  return nullptr;
}

// "phases.profiling.concurrency:1,64[:int]" -> a dimension; nullopt (and a message) when bad.
std::optional<SearchDimension> parse_search_space(const std::string& word,
                                                  std::vector<std::string>& errors) {
  const auto fail = [&](const std::string& why) {
    errors.push_back(
        fmt::format("--search-space '{}': {} (the form is path:lo,hi[:int], e.g. "
                    "phases.profiling.concurrency:1,64)",
                    core::excerpt(word), why));
    return std::nullopt;
  };
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto colon = word.find(':', start);
    parts.push_back(word.substr(start, colon == std::string::npos ? colon : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 3) return fail("2 or 3 parts separated by ':' expected");
  const Sweepable* s = sweepable_for_path(parts[0]);
  if (!s) {
    std::string known;
    for (const auto& k : sweepables()) known += (known.empty() ? "" : ", ") + std::string(k.path);
    return fail("the path is not one inferperf can search; it searches " + known);
  }
  if (parts.size() == 3 && parts[2] != "int")
    return fail("kind '" + parts[2] + "': the monotonic_sla planner searches whole numbers (int)");
  const auto comma = parts[1].find(',');
  if (comma == std::string::npos) return fail("the range needs lo,hi");
  const auto lo =
      parse_integer(config::trim_list_item(std::string_view(parts[1]).substr(0, comma)));
  const auto hi =
      parse_integer(config::trim_list_item(std::string_view(parts[1]).substr(comma + 1)));
  const long long least = s->zero_ok ? 0 : 1;
  if (!lo || !hi || *lo < least || *hi > 10'000'000 || *lo >= *hi)
    return fail(
        fmt::format("the range must be whole numbers with {} <= lo < hi <= 10000000", least));
  const std::string path = s->path;
  return SearchDimension{path, s->flags.back(), s->name, path.substr(path.rfind('.') + 1), *lo,
                         *hi,  !s->integer};
}

bool is_metric_tag(const std::string& t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// The --search-* words checked together and resolved into dimensions and filters.
void resolve_search(SweepArgs& out) {
  SearchArgs& a = out.search;
  auto& errors = out.errors;
  if (!a.enabled()) {
    if (a.any_given)
      errors.push_back(a.sla.empty() ? "the --search-* options need --search-space (the dimension "
                                       "to search, e.g. phases.profiling.concurrency:1,64)"
                                     : "--search-sla needs --search-space: inferperf applies SLA "
                                       "filters to a search (e.g. --search-space "
                                       "phases.profiling.concurrency:1,64)");
    return;
  }
  if (!out.params.empty())
    errors.push_back(
        "--search-space cannot be combined with a comma list (a sweep): search one "
        "dimension, or sweep it");
  if (!a.metric || !a.direction || !a.max_iterations)
    errors.push_back(
        "--search-space needs --search-metric, --search-direction and "
        "--search-max-iterations");
  if (a.metric && !is_metric_tag(*a.metric))
    errors.push_back("--search-metric: '" + core::excerpt(*a.metric) +
                     "' is not a metric tag (lower-case letters, digits and _)");
  if (a.direction && *a.direction != "maximize" && *a.direction != "minimize")
    errors.push_back("--search-direction: '" + *a.direction + "' is not maximize or minimize");
  static const std::set<std::string> kStats = {"avg", "p50", "p90", "p95", "p99"};
  if (!kStats.count(a.stat))
    errors.push_back("--search-stat: '" + core::excerpt(a.stat) +
                     "' is not avg, p50, p90, p95 or p99");
  if (a.planner != "monotonic-sla") {
    errors.push_back("--search-planner " + core::excerpt(a.planner) +
                     ": only monotonic_sla is implemented (AIPerf's default bayesian, optuna and "
                     "smooth_isotonic are not: roadmap \"Capacity\"); give --search-planner "
                     "monotonic_sla");
  }
  a.planner = "monotonic_sla";
  for (const auto& w : a.space)
    if (auto d = parse_search_space(w, errors)) a.dimensions.push_back(std::move(*d));
  if (a.space.size() > 1)
    errors.push_back("--search-space is given " + std::to_string(a.space.size()) +
                     " times: the monotonic_sla planner searches one dimension");
  for (const auto& w : a.sla) {
    auto f = parse_sla_filter(w);
    if (f)
      a.filters.push_back(std::move(*f));
    else
      errors.push_back("--search-sla: " + f.error().message);
  }
  if (a.sla.empty())
    errors.push_back(
        "--search-planner monotonic_sla needs at least one --search-sla filter "
        "(e.g. time_to_first_token:p99:lt:500): it finds the largest value meeting "
        "them");
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
    std::optional<std::string> canonical;
    if (s.integer) {
      const auto v = parse_integer(item);
      if (v && (*v > 0 || (s.zero_ok && *v == 0))) canonical = std::to_string(*v);
    } else {
      const auto v = parse_number(item);
      if (v && (*v > 0 || (s.zero_ok && *v == 0))) canonical = python_float(*v);
    }
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
    } else if (const SearchFlag* sf = search_flag(w.flag)) {
      out.search.any_given = true;
      sf->take(w, out.search);
    } else if (const Sweepable* s = sweepable_for(w.flag)) {
      take_sweepable(*s, w, swept, out);
    } else {
      out.base.push_back(word);
    }
  }
  hand_back_unusable_seed(out);
  if (out.options.sweep_same_seed && !out.options.random_seed)
    out.errors.push_back(
        "--parameter-sweep-same-seed needs --random-seed (the seed every point "
        "reuses)");
  std::stable_sort(out.params.begin(), out.params.end(),
                   [](const SweepParam& a, const SweepParam& b) { return a.path < b.path; });
  resolve_search(out);
  if (out.errors.empty()) pin_dataset_entries(out);
  return out;
}

std::vector<std::string> child_args(const SweepArgs& s, const RunArgs& run) {
  std::vector<std::string> out = s.base;
  for (std::size_t k = 0; k < s.params.size() && k < run.point_values.size(); ++k) {
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
