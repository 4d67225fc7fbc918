// The load schedule as a state machine: given the time, it says which credits go out now and when
// it next needs to be asked; credit returns and first tokens are fed back in. It owns no thread and
// reads no clock, so every timing mode is tested with exact, made-up times (IssuerLoop drives it).
//
// Semantics (docs/architecture.md, Credit flow): a session holds a concurrency slot from its first
// turn until its last turn returns; later turns follow their previous turn's return after the
// turn's delay, on the same session; rate modes send one credit per arrival, continuations first;
// an arrival that finds no free slot is dropped and counted, and the same conversation is tried at
// the next arrival; behind schedule, the next arrival is never earlier than now (no catch-up
// bursts, the lateness stays visible as schedule lag).
//
// Child sessions (SessionShape::spawns, an agent's subagents): when turn k of a session returns,
// each of its spawns for k creates a child session (its own session id and X-Correlation-ID,
// the parent's URL) whose first turn is due `offset_ms` later; the child's later turns follow
// its own delays or timestamps. A Join holds the parent's turn j back until every child of the
// group has ended (its last turn returned), and never sends it before its own due time. Children
// take no concurrency slot (the parent's slot covers its subagents), are never sampled, and do
// not count toward --num-sessions; each of their requests counts toward --request-count. In rate
// modes their turns take arrivals like any later turn. A child nobody joins (background) runs on
// after its parent has ended; sending is done only when every root and child has ended.
#pragma once
#include <cstdint>
#include <optional>
#include <queue>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/clock.hpp"
#include "timing/conversation_sampler.hpp"
#include "timing/credit.hpp"
#include "timing/intervals.hpp"
#include "timing/load_plan.hpp"
#include "timing/shard.hpp"

namespace inferperf::timing {

class Scheduler {
 public:
  Scheduler(PhasePlan plan, std::vector<SessionShape> shapes, ConversationSampler sampler,
            std::mt19937_64 interval_rng, std::mt19937_64 cancel_rng, core::MonoNs start_ns);

  // Appends the credits due at `now` to `out` (issued_ns = now): all of them, or, with
  // `max_work`, at most that many units of work (a credit sent, an arrival dropped or skipped),
  // so that the caller can look for a stop between calls however far behind the schedule is.
  // What is left stays due: next_wakeup() is then `now`.
  // With `lead` > 0 and hand_ahead_ns() > 0, the arrivals due up to now + min(lead,
  // hand_ahead_ns()) (and before the duration's end) come out too, intended_ns in the future:
  // the same credits, in the same order, with the same ids, as polls at each due time would give.
  static constexpr std::size_t kUnbounded = static_cast<std::size_t>(-1);
  void poll(core::MonoNs now, std::vector<Credit>& out, std::size_t max_work = kUnbounded,
            core::MonoNs lead = 0);
  // How far ahead of their intended time credits may be handed out: the plan's hand_ahead_ns in
  // open-loop rate modes, where no return, first token or slot can change what an arrival sends
  // (no ceiling, single turns without spawns, no session count); 0 elsewhere, so the modes whose
  // sends depend on returns decide each credit at its due time, as ever.
  core::MonoNs hand_ahead_ns() const { return hand_ahead_ns_; }
  // When poll() next has work without any event in between (nullopt: only an event can unblock).
  std::optional<core::MonoNs> next_wakeup() const;
  // A request finished (successfully or not).
  void returned(std::int64_t credit_id, std::int64_t session, core::MonoNs now);
  // A streaming request produced its first token: its prefill slot is free.
  void first_token(std::int64_t credit_id);
  // No more credits from now on (signal, grace, caller's decision).
  void stop(core::MonoNs now);

  bool sending_done() const { return done_; }
  // Whether a credit return can let poll() send something sooner than next_wakeup(): in plain
  // open-loop runs (no ceiling, single turns, no session count) returns never unblock anything,
  // so the issuer need not be woken for each of them.
  bool returns_can_unblock() const;
  // Whether sends follow deadlines at a pace where a real-time issuer thread is worth it: rate
  // modes up to 10,000 req/s and fixed schedules. Faster, the issuer's own timer and spin work
  // would take most of a core, and at real-time priority it would starve the workers.
  bool wants_realtime_issuer() const;
  // Sending is done and every issued credit has returned.
  bool idle() const { return done_ && issued_ == returned_; }
  std::int64_t issued() const { return issued_; }
  std::int64_t returned_count() const { return returned_; }
  // Root sessions started (children are not counted: --num-sessions counts roots).
  std::int64_t sessions_started() const { return sessions_started_; }
  std::int64_t children_started() const { return children_started_; }
  std::int64_t dropped_arrivals() const { return dropped_; }
  // Rate modes: arrivals skipped because the issuer was stalled for longer than the catch-up
  // window (2 ms); each of them is missing from the achieved rate.
  std::int64_t skipped_arrivals() const { return skipped_; }
  core::MonoNs start_ns() const { return start_ns_; }
  core::MonoNs sending_end_ns() const { return sending_end_ns_; }
  // Slot limits in force at `now` (ramps included); nullopt = unlimited.
  std::optional<int> session_limit(core::MonoNs now) const;
  // Adaptive scale: the session limit from now on, instead of the plan's (a lower one lets the
  // sessions above it finish; none is cut short).
  void set_session_limit(int limit) { limit_override_ = limit; }
  std::optional<int> prefill_limit(core::MonoNs now) const;
  double rate_at(core::MonoNs now) const;

 private:
  struct Session {
    std::size_t conversation = 0;
    int turns = 1;
    int next_turn = 1;  // the turn to send after the outstanding one returns
    int url_index = 0;
    core::MonoNs scheduled_ns = 0;  // when its latest turn was due (user-centric pacing)
    std::string x_correlation_id;
    bool root = true;                         // false: a child started by its parent's spawn
    std::int64_t parent = -1;                 // children: the session that spawned it
    std::optional<int> parent_group;          // children: the parent's join group it counts toward
    std::unordered_map<int, int> unfinished;  // join group -> spawned children not yet ended
    std::optional<core::MonoNs> held_at;      // next turn's due time, held back by a join
  };
  struct Ready {  // a later turn waiting for its delay or timestamp
    core::MonoNs at;
    std::int64_t session;
    bool operator>(const Ready& o) const { return at != o.at ? at > o.at : session > o.session; }
  };
  struct PendingStart {  // fixed schedule: a session's first turn
    core::MonoNs at;
    std::size_t conversation;
  };
  struct UserStart {  // user-centric: a user's first turn
    core::MonoNs at;
    std::int64_t seq;
    std::optional<std::size_t> conversation;  // nullopt: sampled when the user arrives
    int max_turns;                            // 0: every turn of the conversation
    bool operator>(const UserStart& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  bool rate_mode() const;
  void poll_rate(core::MonoNs now, std::vector<Credit>& out);
  void poll_sessions(core::MonoNs now, std::vector<Credit>& out);
  // Rate modes: skips the arrivals older than the catch-up window; false when the budget ran out
  // first (the next poll goes on skipping).
  bool skip_stale(core::MonoNs now);
  // Takes one unit of this poll's work budget; false (and more_due_) when it is spent.
  bool take_work();
  bool user_centric() const { return plan_.num_users > 0; }
  bool can_send(core::MonoNs now) const;
  bool can_start_session() const;
  bool session_slot_free(core::MonoNs now) const;
  bool prefill_slot_free(core::MonoNs now) const;
  // Returns the number of turns the session will send.
  int start_session(std::size_t conversation, core::MonoNs intended, core::MonoNs now,
                    std::vector<Credit>& out, int max_turns = 0);
  void start_users(core::MonoNs now, std::vector<Credit>& out);
  void send_continuation(core::MonoNs intended, core::MonoNs now, std::vector<Credit>& out);
  Credit make_credit(std::int64_t session, const Session& s, int turn, core::MonoNs intended,
                     core::MonoNs now);
  void start_child(std::int64_t parent, const Spawn& spawn, core::MonoNs now);
  bool joins_pending(const Session& s, int turn) const;
  void end_session(std::int64_t session, core::MonoNs now);
  void finish(core::MonoNs now);
  void check_done(core::MonoNs now);
  static std::optional<int> ramped(std::optional<int> target, double ramp_s, core::MonoNs elapsed);
  std::optional<core::MonoNs> next_ramp_step(std::optional<int> target, double ramp_s,
                                             core::MonoNs after) const;

  // Rate modes: the next arrival of this shard after `from` (every arrival when not sharded).
  core::MonoNs next_owned_arrival(core::MonoNs from);

  PhasePlan plan_;
  std::vector<SessionShape> shapes_;
  ConversationSampler sampler_;
  IntervalGenerator intervals_;
  ArrivalFilter arrivals_;
  std::mt19937_64 cancel_rng_;
  core::MonoNs start_ns_;
  std::optional<core::MonoNs> end_ns_;  // duration end
  core::MonoNs next_arrival_ns_ = 0;    // rate modes
  core::MonoNs last_poll_ns_ = -1;
  core::MonoNs hand_ahead_ns_ = 0;     // see hand_ahead_ns()
  core::MonoNs lead_ns_ = 0;           // the last poll's look-ahead (rate modes)
  core::MonoNs last_intended_ns_ = 0;  // the latest intended time handed out ahead
  std::size_t budget_ = kUnbounded;    // work left to the current poll()
  bool more_due_ = false;              // the last poll() stopped on its budget with work left
  bool catching_up_ = false;           // rate modes: stale arrivals may remain to be skipped
  std::optional<std::size_t> pending_conversation_;  // sampled for a dropped arrival
  std::vector<PendingStart> schedule_;               // fixed schedule, in time order
  std::size_t schedule_pos_ = 0;
  std::priority_queue<UserStart, std::vector<UserStart>, std::greater<>> user_starts_;
  std::int64_t user_seq_ = 0;
  core::MonoNs turn_gap_ns_ = 0;                        // user-centric: between one user's turns
  std::unordered_map<std::int64_t, Session> sessions_;  // started, not finished
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready_;
  std::unordered_set<std::int64_t> prefill_holders_;  // credit ids holding a prefill slot
  std::int64_t issued_ = 0, returned_ = 0, sessions_started_ = 0, dropped_ = 0, skipped_ = 0;
  std::int64_t next_session_id_ = 0;  // roots and children
  std::int64_t children_started_ = 0;
  std::size_t roots_active_ = 0;       // started root sessions not yet ended (the slot holders)
  std::optional<int> limit_override_;  // set_session_limit
  bool done_ = false;
  core::MonoNs sending_end_ns_ = 0;
};

}  // namespace inferperf::timing
