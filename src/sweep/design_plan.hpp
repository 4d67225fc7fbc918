// A sampled design (a YAML sweep of type sobol or latin_hypercube, which reaches the planner as
// one --sweep-design word of JSON): sampled with sweep/sampling_design.hpp into an explicit plan,
// one point per sample, and the sampling_design.json the sweep aggregate folder gets.
#pragma once

namespace inferperf::sweep {

struct SweepArgs;

// out.design into out.params, out.explicit_points and out.design_file; one message per problem
// in out.errors. The seed is the design's own, else --random-seed, else 42 (AIPerf 0.11's sweep
// default); label_format index names the points sample_0000, sample_0001, ...; kv labels them by
// their values as a grid point is.
void resolve_design(SweepArgs& out);

}  // namespace inferperf::sweep
