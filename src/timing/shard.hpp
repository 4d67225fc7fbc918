// One shard's share of a phase (docs/scale-out.md). Every shard builds the same dataset and the
// same global schedule from the same seed; the share is cut so that the shards' sends together
// are the load one process would send:
// - counts and slots (concurrency, prefill concurrency, sessions, users, closed-loop request
//   counts) split as evenly as possible, the first `total % count` shards taking one more;
// - rate arrivals: every shard walks the global arrival sequence and sends only its own, round
//   robin for a constant rate (shard i's arrivals are the global ones staggered by i / R) and by a
//   shared random draw per arrival for Poisson and gamma (thinning: each shard's arrivals are a
//   Poisson process of rate R / N, and the union is exactly the one-process schedule);
// - sessions by a hash of their id, so a session never spans shards (runner).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "timing/load_plan.hpp"

namespace inferperf::timing {

// `total` over `count` shards: shard `index` gets total / count, plus one when index < the
// remainder.
std::int64_t even_share(std::int64_t total, int index, int count);

// The shard that sends a session: FNV-1a (64-bit) of its id modulo the count, the same on every
// machine and compiler.
int shard_of(std::string_view session_id, int count);

// The plan shard `plan.shard.index` of `plan.shard.count` runs, from the one-process plan. A
// count or slot smaller than the shard count is refused (a shard would have nothing to do).
core::Result<PhasePlan> shard_plan(const PhasePlan& global);

// Whether global rate arrival `k` (0-based) belongs to the shard; `assign` is the shared
// assignment stream, drawn once per arrival for Poisson and gamma.
class ArrivalFilter {
 public:
  ArrivalFilter(ArrivalPattern pattern, ShardSpec shard, std::uint64_t seed);
  bool owns_next();  // the next global arrival: this shard's?
  // How many of the first `total` global arrivals are this shard's (a copy of the stream is
  // walked; the filter itself does not move).
  std::int64_t owned_among(std::int64_t total) const;

 private:
  ArrivalPattern pattern_;
  ShardSpec shard_;
  std::mt19937_64 assign_;
  std::int64_t k_ = 0;
};

}  // namespace inferperf::timing
