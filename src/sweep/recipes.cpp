#include "sweep/recipes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/error.hpp"
#include "sweep/search_args.hpp"
#include "sweep/sla.hpp"
#include "sweep/sweep_args.hpp"
#include "sweep/sweep_words.hpp"

namespace inferperf::sweep {

namespace {

using detail::parse_integer;

// The sweep list of one sweepable option (by its sweep name), as a comma list of it would be.
SweepParam list_param(const std::string& name, const std::vector<long long>& values) {
  for (const auto& s : detail::sweepables()) {
    if (s.name != name) continue;
    const std::string path = s.path;
    SweepParam p{s.name, s.flags.back(), {}, path, path.substr(path.rfind('.') + 1)};
    for (const long long v : values) p.values.push_back(std::to_string(v));
    return p;
  }
  return {};
}

// --streaming is on in the base words (a YAML config's streaming: true arrives as the flag).
bool streaming_on(const std::vector<std::string>& base) {
  bool on = false;
  for (const auto& w : base) {
    if (w == "--streaming") on = true;
    if (w.starts_with("--streaming=")) on = detail::parse_bool(w.substr(12)).value_or(false);
  }
  return on;
}

// The base words with `flag` set to `value` (whatever the command line gave it is dropped).
void pin_flag(SweepArgs& out, const std::string& flag, const std::string& value) {
  std::vector<std::string> spellings = {flag};
  if (const auto* s = detail::sweepable_for(flag)) spellings = s->flags;
  detail::drop_flag_words(out.base, spellings);
  out.base.push_back(flag);
  out.base.push_back(value);
}

struct Recipe {
  const char* name;
  bool needs_streaming;
  void (*expand)(SweepArgs&, std::vector<std::string>&);
  // AIPerf 0.11's recipes whose answer is a curve plot their results unless --no-auto-plot.
  bool plots = false;
};

std::string ms_text(double ms) {
  return fmt::format("{}", ms);
}

// The inter-token threshold: --itl-sla-ms or its alias --tpot-sla-ms (the same when both).
std::optional<double> inter_token_ms(const SearchArgs& a, std::vector<std::string>& errors) {
  if (a.itl_sla_ms && a.tpot_sla_ms && *a.itl_sla_ms != *a.tpot_sla_ms)
    errors.push_back(
        "--itl-sla-ms and --tpot-sla-ms name the same threshold (TPOT maps to "
        "inter_token_latency) and differ; give one");
  return a.itl_sla_ms ? a.itl_sla_ms : a.tpot_sla_ms;
}

std::pair<long long, long long> concurrency_range(const SearchArgs& a, long long lo, long long hi,
                                                  std::vector<std::string>& errors) {
  lo = a.concurrency_min.value_or(lo);
  hi = a.concurrency_max.value_or(hi);
  if (lo >= hi)
    errors.push_back(
        fmt::format("--concurrency-min ({}) must be below --concurrency-max ({})", lo, hi));
  return {lo, hi};
}

// A search over concurrency in [lo, hi] with `planner`.
void concurrency_search(SearchArgs& a, long long lo, long long hi, const std::string& planner,
                        const std::string& metric, int max_iterations) {
  a.space = {fmt::format("phases.profiling.concurrency:{},{}", lo, hi)};
  a.metric = metric;
  a.direction = "maximize";
  a.planner = planner;
  a.max_iterations = max_iterations;
}

void add_error_rate(SearchArgs& a) {
  if (a.error_rate_sla) a.sla.push_back("request_error_rate:avg:le:" + ms_text(*a.error_rate_sla));
}

// max-concurrency-under-sla: the largest concurrency in [--concurrency-min, --concurrency-max]
// (1, 1000) meeting every threshold given (each at p99), by --search-style: smooth_isotonic
// (default) or monotonic bisection, bo/optuna (the Bayesian planner), or grid (a log-spaced
// sweep of --concurrency-steps values judged by the same filters).
void max_concurrency(SweepArgs& out, std::vector<std::string>& errors) {
  SearchArgs& a = out.search;
  const std::string style = a.style.value_or("smooth-isotonic");
  static const std::set<std::string> kStyles = {"smooth-isotonic", "monotonic", "bo", "optuna",
                                                "grid"};
  if (!kStyles.count(style)) {
    errors.push_back("--search-style " + core::excerpt(style) +
                     ": expected smooth_isotonic, monotonic, bo, optuna or grid");
    return;
  }
  const auto add = [&](const std::optional<double>& ms, const char* tag) {
    if (ms) a.sla.push_back(std::string(tag) + ":p99:lt:" + ms_text(*ms));
  };
  add(a.ttft_sla_ms, "time_to_first_token");
  add(inter_token_ms(a, errors), "inter_token_latency");  // AIPerf 0.11 maps TPOT to ITL
  add(a.e2e_sla_ms, "request_latency");
  if ((a.ttft_sla_ms || a.itl_sla_ms || a.tpot_sla_ms) && !streaming_on(out.base))
    return errors.push_back(
        "--search-recipe max-concurrency-under-sla: --ttft-sla-ms, "
        "--itl-sla-ms and --tpot-sla-ms judge streamed tokens: add "
        "--streaming (or judge request latency alone with --e2e-sla-ms)");
  if (a.sla.empty()) {
    errors.push_back(
        "--search-recipe max-concurrency-under-sla needs at least one of "
        "--ttft-sla-ms, --itl-sla-ms, --tpot-sla-ms and --e2e-sla-ms");
    return;
  }
  add_error_rate(a);
  const auto [lo, hi] = concurrency_range(a, 1, 1000, errors);
  if (lo >= hi) return;  // concurrency_range said why
  if (style == "grid") {
    out.params.push_back(
        list_param("concurrency", log_spaced(lo, hi, a.concurrency_steps.value_or(8))));
    out.post = RecipePost{"sla_breach_knee", "sla_breach_knee.json", "", "", 0.0};
    return;
  }
  if (style == "bo" || style == "optuna") {
    concurrency_search(a, lo, hi, "bayesian", "request_throughput", 30);
    return;
  }
  // Bisection needs ceil(log2(hi - lo)) + 2 runs; smooth_isotonic at most about three times that.
  const int bisect = static_cast<int>(std::ceil(std::log2(static_cast<double>(hi - lo)))) + 2;
  concurrency_search(a, lo, hi, style == "monotonic" ? "monotonic-sla" : "smooth-isotonic",
                     "request_throughput", std::min(200, 3 * bisect));
}

// The throughput recipes' search: the error-rate filter, then the Bayesian planner over
// concurrency in [1, 1000] (or the typed range) maximising `metric`, 30 iterations.
void bayesian_concurrency_search(SearchArgs& a, const char* metric,
                                 std::vector<std::string>& errors) {
  add_error_rate(a);
  const auto [lo, hi] = concurrency_range(a, 1, 1000, errors);
  if (lo >= hi) return;  // concurrency_range said why
  concurrency_search(a, lo, hi, "bayesian", metric, 30);
}

// max-throughput-ttft-sla / -itl-sla: the Bayesian planner over concurrency in [1, 1000]
// maximising output_token_throughput while the threshold holds at p95, 30 iterations.
void max_throughput(SweepArgs& out, std::vector<std::string>& errors, const char* tag,
                    std::optional<double> ms, const char* flag) {
  SearchArgs& a = out.search;
  if (!ms) {
    errors.push_back(fmt::format("--search-recipe {} needs {}", *a.recipe, flag));
    return;
  }
  a.sla.push_back(std::string(tag) + ":p95:lt:" + ms_text(*ms));
  bayesian_concurrency_search(a, "output_token_throughput", errors);
}

// max-goodput-under-slo (DistServe's goodput): every request is judged against all three
// thresholds (--goodput), and a concurrency is feasible when at least --slo-attainment-fraction
// (0.95) of the requests were good; the Bayesian planner maximises goodput.
void max_goodput(SweepArgs& out, std::vector<std::string>& errors) {
  SearchArgs& a = out.search;
  const auto itl = inter_token_ms(a, errors);
  if (!a.ttft_sla_ms || !itl || !a.e2e_sla_ms) {
    errors.push_back(
        "--search-recipe max-goodput-under-slo needs --ttft-sla-ms, --tpot-sla-ms "
        "(or --itl-sla-ms) and --e2e-sla-ms: together they say which requests "
        "are good");
    return;
  }
  pin_flag(out, "--goodput",
           fmt::format("time_to_first_token:{} inter_token_latency:{} request_latency:{}",
                       *a.ttft_sla_ms, *itl, *a.e2e_sla_ms));
  a.sla.push_back("good_request_fraction:avg:ge:" +
                  ms_text(a.slo_attainment_fraction.value_or(0.95)));
  bayesian_concurrency_search(a, "goodput", errors);
}

// concurrency-ramp: --concurrency-steps (8) log-spaced concurrencies in [1, 1000]; the knee is
// the first whose --degradation-metric-tag/--degradation-stat (request_latency p99) exceeds
// the lowest concurrency's by more than --degradation-threshold (0.20).
void concurrency_ramp(SweepArgs& out, std::vector<std::string>& errors) {
  SearchArgs& a = out.search;
  const auto [lo, hi] = concurrency_range(a, 1, 1000, errors);
  if (lo >= hi) return;  // concurrency_range said why
  out.params.push_back(
      list_param("concurrency", log_spaced(lo, hi, a.concurrency_steps.value_or(8))));
  const std::string tag = a.degradation_metric_tag.value_or("request_latency");
  const std::string stat = a.degradation_stat.value_or("p99");
  // The tag and the statistic as an SLA filter would take them.
  if (const auto f = parse_sla_filter(tag + ":" + stat + ":lt:1"); !f)
    errors.push_back("--degradation-metric-tag/--degradation-stat: " + f.error().message);
  out.post = RecipePost{"degradation_knee_detect", "degradation_knee.json", tag, stat,
                        a.degradation_threshold.value_or(0.20)};
  add_error_rate(a);
}

// prefill-ttft-curve: --isl-steps (8) log-spaced ISLs in [--isl-min, --isl-max] (256, 32768) at
// concurrency 1, and TTFT (avg) fitted against ISL.
void prefill_curve(SweepArgs& out, std::vector<std::string>& errors) {
  SearchArgs& a = out.search;
  const long long lo = a.isl_min.value_or(256), hi = a.isl_max.value_or(32768);
  if (lo >= hi)
    return errors.push_back(fmt::format("--isl-min ({}) must be below --isl-max ({})", lo, hi));
  out.params.push_back(list_param("isl", log_spaced(lo, hi, a.isl_steps.value_or(8))));
  pin_flag(out, "--concurrency", "1");  // prefill alone, no queueing
  out.post = RecipePost{"ttft_curve_fit", "prefill_curve.json", "time_to_first_token", "avg", 0.0};
  add_error_rate(a);
}

// decode-itl-curve: --concurrency-steps (6) log-spaced concurrencies in [1, 200] by
// --osl-steps (4) log-spaced OSLs in [64, 1024], and ITL (avg) over that grid.
void decode_surface(SweepArgs& out, std::vector<std::string>& errors) {
  SearchArgs& a = out.search;
  const auto [lo, hi] = concurrency_range(a, 1, 200, errors);
  if (lo >= hi) return;  // concurrency_range said why
  const long long olo = a.osl_min.value_or(64), ohi = a.osl_max.value_or(1024);
  if (olo >= ohi)
    return errors.push_back(fmt::format("--osl-min ({}) must be below --osl-max ({})", olo, ohi));
  // The order AIPerf 0.11 gives the axes: by config path, datasets.* before phases.*.
  out.params.push_back(list_param("osl", log_spaced(olo, ohi, a.osl_steps.value_or(4))));
  out.params.push_back(
      list_param("concurrency", log_spaced(lo, hi, a.concurrency_steps.value_or(6))));
  out.post =
      RecipePost{"itl_surface_fit", "decode_itl_surface.json", "inter_token_latency", "avg", 0.0};
  add_error_rate(a);
}

// pareto-sweep: each --isl-osl-pairs shape at each concurrency of the --concurrency list (1, 4,
// 16, 64, 256), run as named scenarios so ISL and OSL stay paired; the frontier of TTFT p95
// (lower is better) against output token throughput (higher is better).
void pareto_shapes(SweepArgs& out, std::vector<std::string>& errors) {
  SearchArgs& a = out.search;
  if (!a.isl_osl_pairs)
    return errors.push_back(
        "--search-recipe pareto-sweep needs --isl-osl-pairs (e.g. "
        "128/128,512/256)");
  std::vector<std::pair<long long, long long>> pairs;
  for (const auto& item : detail::split_commas(*a.isl_osl_pairs)) {
    const auto slash = item.find('/');
    const auto isl =
        slash == std::string::npos ? std::nullopt : parse_integer(item.substr(0, slash));
    const auto osl =
        slash == std::string::npos ? std::nullopt : parse_integer(item.substr(slash + 1));
    if (!isl || !osl || *isl < 1 || *osl < 1) {
      errors.push_back("--isl-osl-pairs: '" + core::excerpt(item) +
                       "' is not isl/osl with whole numbers above 0");
      continue;
    }
    pairs.push_back({*isl, *osl});
  }
  std::vector<long long> levels = {1, 4, 16, 64, 256};
  // A typed --concurrency, one value or a list, is the recipe's concurrency axis.
  if (const auto typed =
          detail::drop_flag_words(out.base, detail::sweepable_for("--concurrency")->flags);
      typed && typed->size() == 1)
    if (const auto c = parse_integer(typed->front()); c && *c > 0) levels = {*c};
  for (const auto& p : out.params) {
    if (p.name != "concurrency") continue;
    levels.clear();
    for (const auto& v : p.values) levels.push_back(parse_integer(v).value_or(1));
  }
  out.params.clear();
  if (!errors.empty()) return;
  if (pairs.size() * levels.size() < 2)
    return errors.push_back(
        "--search-recipe pareto-sweep: one shape at one concurrency is a "
        "single point; give two shapes or two concurrencies");
  out.params = {list_param("isl", {}), list_param("osl", {}), list_param("concurrency", levels)};
  for (const auto& [isl, osl] : pairs) {
    out.params[0].values.push_back(std::to_string(isl));
    out.params[1].values.push_back(std::to_string(osl));
    for (const long long c : levels)
      out.explicit_points.push_back(
          {fmt::format("shape_{}_{}_c{}", isl, osl, c),
           {std::to_string(isl), std::to_string(osl), std::to_string(c)}});
  }
  for (const auto& p : out.params)
    detail::drop_flag_words(out.base, detail::sweepable_for(p.flag)->flags);
  out.options.sweep_type = "scenarios";
  out.post = RecipePost{"pareto_sweep_export", "pareto_sweep.json", "", "", 0.0};
  add_error_rate(a);
}

const std::vector<Recipe>& recipes() {
  static const std::vector<Recipe> k = {
      {"max-concurrency-under-sla", false, max_concurrency},
      {"max-throughput-ttft-sla", true,
       [](SweepArgs& o, std::vector<std::string>& e) {
         max_throughput(o, e, "time_to_first_token", o.search.ttft_sla_ms, "--ttft-sla-ms");
       }},
      {"max-throughput-itl-sla", true,
       [](SweepArgs& o, std::vector<std::string>& e) {
         max_throughput(o, e, "inter_token_latency", inter_token_ms(o.search, e),
                        "--itl-sla-ms (or --tpot-sla-ms)");
       }},
      {"max-goodput-under-slo", true, max_goodput},
      {"concurrency-ramp", false, concurrency_ramp, true},
      {"prefill-ttft-curve", true, prefill_curve, true},
      {"decode-itl-curve", true, decode_surface, true},
      {"pareto-sweep", true, pareto_shapes},
  };
  return k;
}

}  // namespace

std::vector<long long> log_spaced(long long lo, long long hi, long long steps) {
  std::set<long long> values;
  const double a = std::log(static_cast<double>(lo)), b = std::log(static_cast<double>(hi));
  for (long long i = 0; i < steps; ++i) {
    const double v =
        std::exp(a + (b - a) * static_cast<double>(i) / static_cast<double>(steps - 1));
    values.insert(std::max<long long>(1, std::llround(v)));
  }
  return {values.begin(), values.end()};
}

const char* recipe_knob_given(const SearchArgs& a) {
  if (a.style) return "--search-style";
  if (a.ttft_sla_ms) return "--ttft-sla-ms";
  if (a.itl_sla_ms) return "--itl-sla-ms";
  if (a.tpot_sla_ms) return "--tpot-sla-ms";
  if (a.e2e_sla_ms) return "--e2e-sla-ms";
  if (a.error_rate_sla) return "--error-rate-sla";
  if (a.slo_attainment_fraction) return "--slo-attainment-fraction";
  if (a.concurrency_min) return "--concurrency-min";
  if (a.concurrency_max) return "--concurrency-max";
  if (a.concurrency_steps) return "--concurrency-steps";
  if (a.isl_min || a.isl_max || a.isl_steps) return "--isl-min/--isl-max/--isl-steps";
  if (a.osl_min || a.osl_max || a.osl_steps) return "--osl-min/--osl-max/--osl-steps";
  if (a.degradation_threshold || a.degradation_metric_tag || a.degradation_stat)
    return "--degradation-*";
  if (a.isl_osl_pairs) return "--isl-osl-pairs";
  return nullptr;
}

void expand_recipe(SweepArgs& out) {
  SearchArgs& a = out.search;
  auto& errors = out.errors;
  const auto it = std::find_if(recipes().begin(), recipes().end(),
                               [&](const Recipe& r) { return *a.recipe == r.name; });
  if (it == recipes().end()) {
    std::string names;
    for (const auto& r : recipes()) names += (names.empty() ? "" : ", ") + std::string(r.name);
    return errors.push_back("--search-recipe " + core::excerpt(*a.recipe) + ": expected one of " +
                            names);
  }
  if (!a.space.empty() || a.metric || a.direction || a.max_iterations || !a.sla.empty() ||
      a.planner != "bayesian" || a.stat != "avg" || !a.sla_tiers.empty() ||
      a.percentile_pooling != "mean")
    return errors.push_back(
        "--search-recipe sets the search itself: leave out --search-space, --search-metric, "
        "--search-stat, --search-direction, --search-max-iterations, --search-planner, "
        "--search-sla, --search-sla-tier and --search-percentile-pooling");
  const bool lists_ok = std::string(it->name) == "pareto-sweep";
  const bool only_concurrency =
      std::all_of(out.params.begin(), out.params.end(),
                  [](const SweepParam& p) { return p.name == "concurrency"; });
  if (!out.params.empty() && !(lists_ok && only_concurrency))
    return errors.push_back(std::string("--search-recipe ") + it->name +
                            " makes its own points: leave out the comma lists" +
                            (lists_ok ? " (pareto-sweep takes only a --concurrency list)" : ""));
  if (a.style && std::string(it->name) != "max-concurrency-under-sla")
    return errors.push_back("--search-style belongs to --search-recipe max-concurrency-under-sla");
  if (it->needs_streaming && !streaming_on(out.base))
    return errors.push_back(std::string("--search-recipe ") + it->name +
                            " measures streamed tokens (TTFT, ITL, output throughput): add "
                            "--streaming");
  it->expand(out, errors);
  if (it->plots && !out.options.auto_plot_given) out.options.auto_plot = true;
}

}  // namespace inferperf::sweep
