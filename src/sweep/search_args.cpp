// The --search-* words: taken off the profile command line like the orchestration flags, then
// checked together and resolved into a dimension and SLA filters.
#include "sweep/search_args.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "config/enum_token.hpp"
#include "core/error.hpp"
#include "sweep/recipes.hpp"
#include "sweep/sweep_args.hpp"
#include "sweep/sweep_words.hpp"

namespace inferperf::sweep {

namespace {

using namespace detail;

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

// A recipe threshold: a finite number of milliseconds above 0.
std::optional<double> positive_ms(SweepFlagWord& w) {
  auto v = w.value();
  if (!v) return std::nullopt;
  const auto d = parse_number(*v);
  if (!d || *d <= 0) {
    w.errors.push_back(w.flag + ": '" + core::excerpt(*v) + "' is not a number of ms above 0");
    return std::nullopt;
  }
  return d;
}

// A share: a number in (0, 1), or (0, 1] when `one_ok`.
std::optional<double> fraction(SweepFlagWord& w, bool one_ok = false) {
  auto v = w.value();
  if (!v) return std::nullopt;
  const auto d = parse_number(*v);
  if (!d || *d <= 0 || *d > 1 || (*d == 1 && !one_ok)) {
    w.errors.push_back(fmt::format("{}: '{}' is not a number above 0 and {} 1", w.flag,
                                   core::excerpt(*v), one_ok ? "up to" : "below"));
    return std::nullopt;
  }
  return d;
}

std::optional<std::string> word(SweepFlagWord& w) {
  return w.value();
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
      {"--search-percentile-pooling",
       [](W& w, A& a) {
         if (auto v = w.value()) a.percentile_pooling = config::normalise_enum_token(*v);
       }},
      // AIPerf 0.11 takes penalty or eic and does nothing with it (deprecated): so does inferperf.
      {"--bo-constraint-mode",
       [](W& w, A&) {
         const auto v = w.value();
         const std::string mode = v ? config::normalise_enum_token(*v) : "";
         if (v && mode != "penalty" && mode != "eic")
           w.errors.push_back("--bo-constraint-mode: '" + core::excerpt(*v) +
                              "' is not penalty or eic");
       }},
      {"--search-sla",
       [](W& w, A& a) {
         if (auto v = w.value()) a.sla.push_back(*v);
       }},
      {"--search-sla-tier",
       [](W& w, A& a) {
         if (auto v = w.value()) a.sla_tiers.push_back(*v);
       }},
      {"--search-recipe",
       [](W& w, A& a) {
         if (auto v = w.value()) a.recipe = config::normalise_enum_token(*v);
       }},
      {"--search-style",
       [](W& w, A& a) {
         if (auto v = w.value()) a.style = config::normalise_enum_token(*v);
       }},
      {"--ttft-sla-ms", [](W& w, A& a) { a.ttft_sla_ms = positive_ms(w); }},
      {"--itl-sla-ms", [](W& w, A& a) { a.itl_sla_ms = positive_ms(w); }},
      {"--tpot-sla-ms", [](W& w, A& a) { a.tpot_sla_ms = positive_ms(w); }},
      {"--e2e-sla-ms", [](W& w, A& a) { a.e2e_sla_ms = positive_ms(w); }},
      {"--concurrency-min",
       [](W& w, A& a) {
         if (auto n = whole_value(w, 1, 1'000'000)) a.concurrency_min = *n;
       }},
      {"--concurrency-max",
       [](W& w, A& a) {
         if (auto n = whole_value(w, 1, 1'000'000)) a.concurrency_max = *n;
       }},
      {"--concurrency-steps", [](W& w, A& a) { a.concurrency_steps = whole_value(w, 2, 1000); }},
      {"--isl-min", [](W& w, A& a) { a.isl_min = whole_value(w, 1, 10'000'000); }},
      {"--isl-max", [](W& w, A& a) { a.isl_max = whole_value(w, 1, 10'000'000); }},
      {"--isl-steps", [](W& w, A& a) { a.isl_steps = whole_value(w, 2, 1000); }},
      {"--osl-min", [](W& w, A& a) { a.osl_min = whole_value(w, 1, 10'000'000); }},
      {"--osl-max", [](W& w, A& a) { a.osl_max = whole_value(w, 1, 10'000'000); }},
      {"--osl-steps", [](W& w, A& a) { a.osl_steps = whole_value(w, 2, 1000); }},
      {"--error-rate-sla", [](W& w, A& a) { a.error_rate_sla = fraction(w); }},
      {"--slo-attainment-fraction",
       [](W& w, A& a) { a.slo_attainment_fraction = fraction(w, true); }},
      {"--degradation-threshold", [](W& w, A& a) { a.degradation_threshold = fraction(w); }},
      {"--degradation-metric-tag", [](W& w, A& a) { a.degradation_metric_tag = word(w); }},
      {"--degradation-stat", [](W& w, A& a) { a.degradation_stat = word(w); }},
      {"--isl-osl-pairs", [](W& w, A& a) { a.isl_osl_pairs = word(w); }},
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

// "phases.profiling.concurrency:1,64[:int|real]" -> a dimension; nullopt (and a message) when
// bad. The kind defaults to the option's own: int for counts, real for a rate or a duration.
std::optional<SearchDimension> parse_search_space(const std::string& word,
                                                  std::vector<std::string>& errors) {
  const auto fail = [&](const std::string& why) {
    errors.push_back(
        fmt::format("--search-space '{}': {} (the form is path:lo,hi[:int|real], e.g. "
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
  if (parts.size() == 3 && parts[2] != "int" && parts[2] != "real")
    return fail("kind '" + parts[2] + "' is not int or real");
  const bool integer = parts.size() == 3 ? parts[2] == "int" : s->integer;
  if (s->integer && !integer) return fail(std::string(s->name) + " takes whole numbers: kind int");
  const auto comma = parts[1].find(',');
  if (comma == std::string::npos) return fail("the range needs lo,hi");
  const std::string lo_text = config::trim_list_item(std::string_view(parts[1]).substr(0, comma));
  const std::string hi_text = config::trim_list_item(std::string_view(parts[1]).substr(comma + 1));
  const auto read = [&](const std::string& t) -> std::optional<double> {
    if (!integer) return parse_number(t);
    const auto v = parse_integer(t);
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
  };
  const auto lo = read(lo_text), hi = read(hi_text);
  const double least = s->zero_ok ? 0 : integer ? 1 : 0;
  if (!lo || !hi || *lo < least || *hi > 10'000'000 || *lo >= *hi ||
      (!s->zero_ok && !integer && *lo <= 0))
    return fail(fmt::format("the range must be {} with {} {} lo < hi <= 10000000",
                            integer ? "whole numbers" : "numbers", least,
                            s->zero_ok || integer ? "<=" : "<"));
  const std::string path = s->path;
  SearchDimension d{path, s->flags.back(), s->name, path.substr(path.rfind('.') + 1), *lo, *hi};
  d.integer = integer;
  d.float_flag = !s->integer;
  return d;
}

// "[LABEL:]FILTER[,FILTER...]" per --search-sla-tier: a first item of five ':' parts starts
// with its label.
void parse_sla_tiers(SearchArgs& a, std::vector<std::string>& errors) {
  if (a.sla_tiers.empty()) return;
  if (a.sla_tiers.size() < 2 || a.sla_tiers.size() > 10)
    errors.push_back(
        fmt::format("--search-sla-tier is given {} time(s): a tiered search has 2 to "
                    "10 tiers",
                    a.sla_tiers.size()));
  std::set<std::string> labels;
  for (std::size_t k = 0; k < a.sla_tiers.size(); ++k) {
    SearchArgs::Tier tier{fmt::format("tier_{}", k + 1), {}};
    auto items = split_commas(a.sla_tiers[k]);
    if (!items.empty() && std::count(items[0].begin(), items[0].end(), ':') == 4) {
      const auto colon = items[0].find(':');
      tier.label = items[0].substr(0, colon);
      items[0] = items[0].substr(colon + 1);
      if (!is_metric_tag(tier.label))
        errors.push_back("--search-sla-tier '" + core::excerpt(a.sla_tiers[k]) +
                         "': a label is lower-case letters, digits and _ (gold, tier_1)");
    }
    for (const auto& item : items) {
      auto f = parse_sla_filter(item);
      if (f)
        tier.filters.push_back(std::move(*f));
      else
        errors.push_back("--search-sla-tier " + tier.label + ": " + f.error().message);
    }
    if (!labels.insert(tier.label).second)
      errors.push_back("--search-sla-tier: the label '" + tier.label + "' is given twice");
    a.tiers.push_back(std::move(tier));
  }
}

void parse_sla_filters(SearchArgs& a, std::vector<std::string>& errors) {
  for (const auto& w : a.sla) {
    auto f = parse_sla_filter(w);
    if (f)
      a.filters.push_back(std::move(*f));
    else
      errors.push_back("--search-sla: " + f.error().message);
  }
}

}  // namespace

bool is_search_flag(const std::string& flag) {
  return search_flag(flag) != nullptr;
}

bool take_search_flag(detail::SweepFlagWord& w, SearchArgs& a) {
  const SearchFlag* f = search_flag(w.flag);
  if (!f) return false;
  a.any_given = true;
  f->take(w, a);
  return true;
}

void resolve_search_args(SweepArgs& out) {
  SearchArgs& a = out.search;
  auto& errors = out.errors;
  const std::size_t errors_before = errors.size();
  if (a.recipe) {
    expand_recipe(out);
    if (errors.size() > errors_before) return;  // its message says it all
  } else if (const char* knob = recipe_knob_given(a)) {
    errors.push_back(std::string(knob) + " is a knob of --search-recipe, which is not given");
    return;
  }
  if (!a.enabled()) {
    // Without a search, --search-sla filters a sweep's points (AIPerf 0.11: "feasibility filters
    // for search and grid sweeps"); every other --search-* option needs the search.
    const bool only_sla = a.any_given && !a.sla.empty() && !a.metric && !a.direction &&
                          !a.max_iterations && a.planner == "bayesian";
    if (!a.sla_tiers.empty())
      errors.push_back(
          "--search-sla-tier needs an adaptive search (--search-space or a search "
          "recipe): each tier is searched for its own best point");
    // A grid recipe has made the sweep and its filters (if any).
    if (a.any_given && !a.recipe && !(only_sla && !out.params.empty()))
      errors.push_back(a.sla.empty() ? "the --search-* options need --search-space (the dimension "
                                       "to search, e.g. phases.profiling.concurrency:1,64)"
                                     : "--search-sla needs --search-space or a sweep (a comma "
                                       "list such as --concurrency 1,2,4,8) to filter");
    parse_sla_filters(a, errors);
    return;
  }
  if (!out.params.empty() && out.variants.empty())
    errors.push_back(
        "--search-space cannot be combined with a comma list (a sweep): search one "
        "dimension, or sweep it");
  if (out.options.convergence.enabled())
    errors.push_back(
        "--convergence-metric cannot be combined with a search: each iteration runs "
        "--num-profile-runs times, so that every verdict is as sure as the others");
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
  if (a.planner == "monotonic-sla" || a.planner == "smooth-isotonic" || a.planner == "bayesian") {
    std::replace(a.planner.begin(), a.planner.end(), '-', '_');
  } else {
    errors.push_back("--search-planner " + core::excerpt(a.planner) +
                     ": inferperf has bayesian (the default), monotonic_sla and smooth_isotonic "
                     "(optuna's samplers are not implemented: give --search-planner bayesian)");
  }
  for (const auto& w : a.space)
    if (auto d = parse_search_space(w, errors)) a.dimensions.push_back(std::move(*d));
  // The search sets each dimension's flag in every run: a value the command line (or a YAML
  // phase) gave it is replaced, as a sweep list replaces it.
  for (const auto& d : a.dimensions)
    if (const auto* s = sweepable_for(d.flag)) drop_flag_words(out.base, s->flags);
  std::set<std::string> paths;
  for (const auto& d : a.dimensions)
    if (!paths.insert(d.path).second)
      errors.push_back("--search-space: " + d.path + " is given twice");
  if (a.percentile_pooling != "mean" && a.percentile_pooling != "pooled")
    errors.push_back("--search-percentile-pooling: '" + core::excerpt(a.percentile_pooling) +
                     "' is not mean or pooled");
  else if (a.percentile_pooling == "pooled" && a.stat == "avg")
    errors.push_back(
        "--search-percentile-pooling pooled pools a percentile: give --search-stat "
        "p50, p90, p95 or p99");
  if (a.planner == "bayesian" && a.initial_points >= a.max_iterations.value_or(201))
    errors.push_back(
        fmt::format("--search-initial-points ({}{}) must be below "
                    "--search-max-iterations for the bayesian planner",
                    a.initial_points, a.initial_points == 5 ? ", the default" : ""));
  parse_sla_filters(a, errors);
  parse_sla_tiers(a, errors);
  if (a.planner == "bayesian") {
    // A recipe's load axis spans decades (1 to 1000): modelled on a log scale, as AIPerf's
    // recipes give it a log-uniform prior.
    if (a.recipe)
      for (auto& d : a.dimensions) d.log_scale = true;
    return;  // any box; the SLA filters are optional constraints
  }
  if (a.space.size() > 1)
    errors.push_back("--search-space is given " + std::to_string(a.space.size()) + " times: the " +
                     a.planner + " planner searches one dimension (bayesian searches several)");
  if (!a.dimensions.empty() && !a.dimensions.front().integer)
    errors.push_back("--search-planner " + a.planner + " searches whole numbers: kind int");
  if (a.sla.empty() && a.sla_tiers.empty())
    errors.push_back("--search-planner " + a.planner +
                     " needs at least one --search-sla filter (e.g. "
                     "time_to_first_token:p99:lt:500): it finds the largest value meeting them");
}

}  // namespace inferperf::sweep
