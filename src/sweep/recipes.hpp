// AIPerf 0.11's --search-recipe presets, expanded into what inferperf already runs. Search
// recipes (max-concurrency-under-sla, max-throughput-ttft-sla, max-throughput-itl-sla,
// max-goodput-under-slo) fill the search: its dimension, objective, SLA filters and planner.
// Grid recipes (concurrency-ramp, prefill-ttft-curve, decode-itl-curve, pareto-sweep, and
// max-concurrency-under-sla with --search-style grid) fill the sweep's lists or points and name
// the post-processing that writes their derived file into sweep_aggregate/
// (sweep/recipe_post.hpp). docs/sweeps.md "Recipes" has each recipe's defaults.
#pragma once
#include <string>
#include <vector>

namespace inferperf::sweep {

struct SweepArgs;
struct SearchArgs;

// The first recipe knob given (--ttft-sla-ms, --isl-min, ...), or nullptr: without a recipe each
// is an error.
const char* recipe_knob_given(const SearchArgs& a);

// out.search.recipe expanded into out.search (a search recipe) or out.params /
// out.explicit_points / out.post (a grid recipe); one message per problem in out.errors.
void expand_recipe(SweepArgs& out);

// `steps` values spread evenly on a log scale from lo to hi, both included, rounded to whole
// numbers, duplicates dropped, ascending (1..1000 in 8 steps: 1 3 7 19 52 139 373 1000).
std::vector<long long> log_spaced(long long lo, long long hi, long long steps);

}  // namespace inferperf::sweep
