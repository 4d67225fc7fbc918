// What one phase (warmup or profiling) of a benchmark sends, as the scheduler sees it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "records/phase.hpp"
#include "timing/intervals.hpp"

namespace inferperf::timing {

// A child session one of a session's turns starts when it returns (an agent's subagent).
struct Spawn {
  int after_turn = 0;        // the parent turn whose return starts the child
  std::size_t child = 0;     // the child's conversation (a shape with root = false)
  double offset_ms = 0.0;    // the child's first turn is due this long after that return
  std::optional<int> group;  // join group; nullopt: a background child nobody waits for
};

// A parent turn that is not sent before every child of a spawn group has sent its last turn and
// that turn has returned (on top of the turn's own delay or timestamp).
struct Join {
  int turn = 1;
  int group = 0;
};

// The timing-relevant shape of one dataset conversation.
struct SessionShape {
  int turns = 1;
  std::vector<double> delay_ms;                     // per turn: wait after the previous reply
  std::vector<std::optional<double>> timestamp_ms;  // per turn (fixed schedule), may be empty
  // false: a child conversation, started only by a parent's Spawn and never sampled or scheduled
  // as a session of its own.
  bool root = true;
  std::vector<Spawn> spawns;  // children this session starts, by parent turn
  std::vector<Join> joins;    // turns that wait for a spawn group
  // Sharded runs: another shard sends this session (never sampled or scheduled here).
  bool elsewhere = false;
};

// The conversations new sessions may be drawn from (every root shape this shard sends, in order).
inline std::vector<std::size_t> root_indices(const std::vector<SessionShape>& shapes) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (shapes[i].root && !shapes[i].elsewhere) out.push_back(i);
  return out;
}

// This process's place among the load generators of one benchmark (--shard-index/--shard-count).
struct ShardSpec {
  int index = 0;
  int count = 1;
};

struct PhasePlan {
  records::Phase phase = records::Phase::kProfiling;
  ArrivalPattern pattern = ArrivalPattern::kConcurrencyBurst;
  double rate = 0.0;                       // requests per second (rate patterns)
  double smoothness = 1.0;                 // gamma shape
  std::optional<int> concurrency;          // session slots: a ceiling in rate modes
  std::optional<int> prefill_concurrency;  // requests without a first token yet
  double concurrency_ramp_s = 0.0;
  double prefill_ramp_s = 0.0;
  double rate_ramp_s = 0.0;
  std::optional<std::int64_t> request_count;  // credits to send
  std::optional<std::int64_t> num_sessions;   // sessions to start
  std::optional<double> duration_s;           // stop sending after this long
  double cancel_rate_pct = 0.0;               // --request-cancellation-rate
  double cancel_delay_s = 0.0;                // --request-cancellation-delay
  // Fixed schedule: every conversation once, first turns at start + (timestamp - zero).
  bool fixed_schedule = false;
  double schedule_zero_ms = 0.0;
  // User-centric rate (docs/architecture.md, Credit flow): num_users > 0 simulated users, each
  // sending its next turn num_users / rate seconds after its previous one (`rate` is
  // --user-centric-rate).
  int num_users = 0;
  int url_count = 1;  // --url values: each new session takes the next one, its turns keep it
  // Sharded runs (timing/shard.hpp): rate arrivals are filtered by shard with a stream seeded
  // from `shard_seed` (the same on every shard); user-centric shards start their first user
  // `start_offset_s` after the phase starts, so the shards' users interleave.
  ShardSpec shard;
  std::uint64_t shard_seed = 0;
  double start_offset_s = 0.0;
  // How long before their intended time credits may be handed to the worker that sends them
  // (Scheduler::hand_ahead_ns: open-loop rate modes only); 0 hands every credit out when due.
  std::int64_t hand_ahead_ns = 0;
};

}  // namespace inferperf::timing
