// The agentic-code session generator of `inferperf synthesize` (AIPerf 0.11's SessionSynthesizer
// and dataset writer): multi-turn coding sessions whose context grows turn by turn over a layered
// prefix (L1 global, L1.5 per group, L2 + history per session), written as a mooncake_trace JSONL
// that `inferperf profile --custom-dataset-type mooncake_trace` replays. Pure computation: one
// seed gives the same bytes on every machine (core/rng's own distributions).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/synthesize/agentic_config.hpp"
#include "core/error.hpp"

namespace inferperf::app::agentic {

enum class EndReason { kForcedRetire, kProbabilisticReset, kRestartSplit, kTargetTurnCount };
const char* to_string(EndReason r);

struct SessionTurn {
  long long input_length = 0;  // the whole context this turn sends (cumulative)
  long long output_length = 0;
  long long new_tokens = 0;  // added since the previous turn; the whole context on turn 0
  double delay_ms = 0;       // before this turn (0 on turn 0)
  double timestamp_ms = 0;   // from the session's start
};

struct Session {
  std::string id;          // "sess-" + 12 hex digits
  long long index = 0;     // allocator slot: the base of the session's own hash ids
  long long group_id = 0;  // its L1.5 group
  std::vector<SessionTurn> turns;
  EndReason end = EndReason::kForcedRetire;
  bool restart_continuation = false;  // the second half of a session split at a restart
};

// `num_sessions` primary sessions (plus the continuations restarts split off, placed after their
// parent). Fails only when turns mode cannot realise a session within its attempts.
core::Result<std::vector<Session>> synthesize_sessions(const Config& c, long long num_sessions,
                                                       std::uint64_t seed);

// The hash ids of a context of `input_length` tokens: L1 blocks, the group's L1.5 blocks, then the
// session's own blocks, ceil(input_length / block_size) in all.
std::vector<long long> prefix_hash_ids(const Config& c, long long session_index, long long group_id,
                                       long long input_length);

struct DatasetText {
  std::string jsonl;  // one row a line
  long long rows = 0;
  long long renumbered_blocks = 0;  // ids replaced so that every id has one block size
};

// The mooncake_trace rows, as AIPerf writes them: input_length is the turn's new tokens; turn 0
// carries the prefix hash ids, `timestamp` (0.0), `group_id` (and `is_restart` on a
// continuation); later turns carry fresh sequential ids and `delay` (ms, one decimal). A hash id
// that would name blocks of two sizes (a partial last block that another row uses whole) is
// replaced in the later row by a new id, so the file loads in inferperf.
DatasetText dataset_jsonl(const Config& c, const std::vector<Session>& sessions);

}  // namespace inferperf::app::agentic
