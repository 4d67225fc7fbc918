// --variant / --sweep-variant (AIPerf 0.11's scenarios on the command line): each occurrence is
// one named run, "[name:] key=value, key=value", keys being profile flags without "--". They
// become an explicit plan: one SweepParam per flag any scenario sets, one ExplicitPoint per
// scenario.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace inferperf::sweep {

struct SweepArgs;

struct Variant {
  std::string name;                                       // "" when the word names none
  std::vector<std::pair<std::string, std::string>> sets;  // flag ("--concurrency"), value
};

// One --variant word. A leading "name:" is a name when it holds no '='; pieces are split at
// commas, and a piece without '=' continues the previous value (so a value may hold commas).
core::Result<Variant> parse_variant(const std::string& word);

// out.variants into out.params and out.explicit_points (one message per problem in out.errors):
// at least two, none with a sweep list, a search or a recipe, no orchestration flag as a key,
// sweepable values made canonical; the base's words for the flags they set are dropped, since a
// scenario's value replaces the command line's.
void resolve_variants(SweepArgs& out);

}  // namespace inferperf::sweep
