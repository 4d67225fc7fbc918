// The --search-* options (AIPerf 0.11's adaptive search) as typed and as resolved by
// extract_sweep_args; sweep/search.hpp plans and reports a search.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sweep/sla.hpp"

namespace inferperf::sweep {

// One --search-space dimension: the AIPerf 0.11 config path, the profile flag that sets it, its
// short name ("concurrency"), the path's last segment (folder names) and the range.
struct SearchDimension {
  std::string path;
  std::string flag;
  std::string name;
  std::string dir_name;
  double lo = 0;
  double hi = 0;
  bool integer = true;      // kind int (whole numbers) or real
  bool float_flag = false;  // the flag takes a float: whole values are written "8.0"
  bool log_scale = false;   // the Bayesian planner models it in log space (the recipes' load)
};

struct SearchArgs {
  std::vector<std::string> space;  // --search-space, as typed (repeatable)
  std::optional<std::string> metric;
  std::string stat = "avg";
  std::optional<std::string> direction;  // maximize | minimize
  std::optional<int> max_iterations;     // 2..200
  int initial_points = 5;                // bayesian only: Sobol points before the model is fitted
  std::optional<long long> random_seed;  // bayesian: its proposals (monotonic ones need none)
  std::string planner = "bayesian";      // resolved: bayesian | monotonic_sla | smooth_isotonic
  // --search-percentile-pooling: a percentile objective over the runs is the mean of each run's
  // percentile (mean) or the percentile of every run's requests together (pooled).
  std::string percentile_pooling = "mean";
  std::vector<std::string> sla;        // --search-sla, as typed (repeatable)
  std::vector<std::string> sla_tiers;  // --search-sla-tier, as typed (repeatable)
  // --search-recipe and its knobs (sweep/recipes.hpp): a search recipe fills the space,
  // filters, objective and planner above; a grid recipe the sweep's lists or points.
  std::optional<std::string> recipe;
  std::optional<std::string> style;  // --search-style of max-concurrency-under-sla
  std::optional<double> ttft_sla_ms, itl_sla_ms, tpot_sla_ms, e2e_sla_ms;
  std::optional<double> error_rate_sla;           // (0, 1): request_error_rate's ceiling
  std::optional<double> slo_attainment_fraction;  // (0, 1]: max-goodput-under-slo
  std::optional<long long> concurrency_min, concurrency_max, concurrency_steps;
  std::optional<long long> isl_min, isl_max, isl_steps, osl_min, osl_max, osl_steps;
  std::optional<double> degradation_threshold;  // concurrency-ramp's knee
  std::optional<std::string> degradation_metric_tag, degradation_stat;
  std::optional<std::string> isl_osl_pairs;  // pareto-sweep's shapes "isl/osl,isl/osl"
  // Resolved by extract_sweep_args when the words are valid.
  std::vector<SearchDimension> dimensions;
  std::vector<SlaFilter> filters;
  // --search-sla-tier: each tier's label ("gold", or tier_1, tier_2, ...) and its own filters;
  // a tier is met when these and every --search-sla filter hold.
  struct Tier {
    std::string label;
    std::vector<SlaFilter> filters;
  };
  std::vector<Tier> tiers;

  // A search runs (once resolved, a search recipe has filled `space`).
  bool enabled() const { return !space.empty(); }
  // Any --search-* option given at all.
  bool any_given = false;
};

struct SweepArgs;
namespace detail {
struct SweepFlagWord;
}

// One of the --search-* (and recipe) flags.
bool is_search_flag(const std::string& flag);

// A --search-* word: its value taken into `a` (true), or not a search flag (false).
bool take_search_flag(detail::SweepFlagWord& w, SearchArgs& a);

// The --search-* words checked together (one line per problem in out.errors) and resolved into
// out.search's dimensions and filters.
void resolve_search_args(SweepArgs& out);

}  // namespace inferperf::sweep
