#include "timing/scheduler.hpp"

#include <algorithm>
#include <cmath>

#include "core/rng.hpp"
#include "core/uuid.hpp"
#include "timing/user_centric.hpp"

namespace inferperf::timing {

namespace {
// Infinite or huge durations (--benchmark-duration inf) saturate instead of overflowing.
core::MonoNs seconds(double s) {
  constexpr double kMax = 9.0e18;
  const double ns = s * 1e9;
  if (!(ns < kMax)) return static_cast<core::MonoNs>(kMax);
  return static_cast<core::MonoNs>(std::llround(ns));
}
constexpr core::MonoNs kRateRampStepNs = 100'000'000;  // the rate ramp moves every 0.1 s
// How far behind its grid a rate schedule may fall and still send every arrival: those missed by a
// short stall (a late timer wake-up, a preempted issuer) go out at once with their lag recorded, so
// the achieved rate does not drift; after a longer stall the arrivals older than this window are
// skipped and counted (no burst), and the grid keeps its phase.
constexpr core::MonoNs kCatchUpWindowNs = 2'000'000;
}  // namespace

Scheduler::Scheduler(PhasePlan plan, std::vector<SessionShape> shapes, ConversationSampler sampler,
                     std::mt19937_64 interval_rng, std::mt19937_64 cancel_rng,
                     core::MonoNs start_ns)
    : plan_(std::move(plan)),
      shapes_(std::move(shapes)),
      sampler_(std::move(sampler)),
      intervals_(plan_.pattern, plan_.smoothness, std::move(interval_rng)),
      arrivals_(plan_.pattern, plan_.shard, plan_.shard_seed),
      cancel_rng_(std::move(cancel_rng)),
      start_ns_(start_ns) {
  if (plan_.duration_s && std::isfinite(*plan_.duration_s))
    end_ns_ = start_ns_ + seconds(*plan_.duration_s);
  if (plan_.fixed_schedule) {
    for (std::size_t i = 0; i < shapes_.size(); ++i) {
      // Children are started by their parent's spawn; `elsewhere` sessions by another shard.
      if (!shapes_[i].root || shapes_[i].elsewhere) continue;
      const auto& ts = shapes_[i].timestamp_ms;
      const double first = ts.empty() || !ts[0] ? plan_.schedule_zero_ms : *ts[0];
      schedule_.push_back({start_ns_ + seconds((first - plan_.schedule_zero_ms) / 1000.0), i});
    }
    std::stable_sort(schedule_.begin(), schedule_.end(),
                     [](const PendingStart& a, const PendingStart& b) { return a.at < b.at; });
  }
  if (user_centric()) {
    turn_gap_ns_ = seconds(plan_.num_users / plan_.rate);
    // The virtual history is laid out for the dataset's average session length.
    double total_turns = 0;
    std::size_t roots = 0;
    for (const auto& sh : shapes_) {
      if (!sh.root || sh.elsewhere) continue;
      total_turns += std::max(1, sh.turns);
      ++roots;
    }
    const int session_turns =
        roots == 0 ? 1 : static_cast<int>(std::lround(total_turns / static_cast<double>(roots)));
    for (const InitialUser& u : initial_users(plan_.num_users, session_turns)) {
      user_starts_.push({start_ns_ + seconds(plan_.start_offset_s + u.order / plan_.rate),
                         user_seq_++, sampler_.next(), u.turns});
    }
  }
  if (rate_mode()) {
    // A shard sends its own among the first --request-count arrivals of the global sequence.
    if (plan_.shard.count > 1 && plan_.request_count)
      plan_.request_count = arrivals_.owned_among(*plan_.request_count);
    // As AIPerf: the first arrival is one interval after the phase starts.
    next_arrival_ns_ = next_owned_arrival(start_ns_);
  }
  // Decided once: returns_can_unblock() looks at every session shape.
  if (rate_mode() && !returns_can_unblock())
    hand_ahead_ns_ = std::max<core::MonoNs>(0, plan_.hand_ahead_ns);
}

core::MonoNs Scheduler::next_owned_arrival(core::MonoNs from) {
  core::MonoNs t = from;
  do {
    // At least 1 ns: an interval that rounds to zero would never move the schedule forward.
    t += std::max<core::MonoNs>(1, seconds(intervals_.next(rate_at(t))));
  } while (!arrivals_.owns_next());
  return t;
}

std::optional<int> Scheduler::ramped(std::optional<int> target, double ramp_s,
                                     core::MonoNs elapsed) {
  if (!target || ramp_s <= 0.0 || *target <= 1) return target;
  const double frac = static_cast<double>(elapsed) / (ramp_s * 1e9);
  if (frac >= 1.0) return target;
  return 1 + static_cast<int>(std::floor((*target - 1) * std::max(frac, 0.0)));
}

std::optional<core::MonoNs> Scheduler::next_ramp_step(std::optional<int> target, double ramp_s,
                                                      core::MonoNs after) const {
  if (!target || ramp_s <= 0.0 || *target <= 1) return std::nullopt;
  const int now_value = *ramped(target, ramp_s, after - start_ns_);
  if (now_value >= *target) return std::nullopt;
  // Value v is reached at (v - 1) / (target - 1) of the ramp.
  const double frac = static_cast<double>(now_value) / (*target - 1);
  return start_ns_ + static_cast<core::MonoNs>(std::ceil(frac * ramp_s * 1e9));
}

std::optional<int> Scheduler::session_limit(core::MonoNs now) const {
  if (limit_override_) return limit_override_;
  return ramped(plan_.concurrency, plan_.concurrency_ramp_s, now - start_ns_);
}

std::optional<int> Scheduler::prefill_limit(core::MonoNs now) const {
  return ramped(plan_.prefill_concurrency, plan_.prefill_ramp_s, now - start_ns_);
}

double Scheduler::rate_at(core::MonoNs now) const {
  if (plan_.rate_ramp_s <= 0.0) return plan_.rate;
  const core::MonoNs elapsed = std::max<core::MonoNs>(0, now - start_ns_);
  const double stepped = static_cast<double>(elapsed / kRateRampStepNs) * 0.1;
  const double frac = std::clamp(stepped / plan_.rate_ramp_s, 0.1 / plan_.rate_ramp_s, 1.0);
  return plan_.rate * frac;
}

bool Scheduler::rate_mode() const {
  return plan_.pattern != ArrivalPattern::kConcurrencyBurst && !plan_.fixed_schedule &&
         !user_centric();
}

bool Scheduler::can_send(core::MonoNs now) const {
  if (done_) return false;
  if (plan_.request_count && issued_ >= *plan_.request_count) return false;
  return !end_ns_ || now < *end_ns_;
}

bool Scheduler::can_start_session() const {
  if (plan_.num_sessions && sessions_started_ >= *plan_.num_sessions) return false;
  return !plan_.fixed_schedule || schedule_pos_ < schedule_.size();
}

bool Scheduler::session_slot_free(core::MonoNs now) const {
  const auto limit = session_limit(now);
  return !limit || roots_active_ < static_cast<std::size_t>(*limit);
}

bool Scheduler::prefill_slot_free(core::MonoNs now) const {
  const auto limit = prefill_limit(now);
  return !limit || prefill_holders_.size() < static_cast<std::size_t>(*limit);
}

Credit Scheduler::make_credit(std::int64_t session, const Session& s, int turn,
                              core::MonoNs intended, core::MonoNs now) {
  Credit c;
  c.id = issued_++;
  c.phase = plan_.phase;
  c.session = session;
  c.conversation_index = s.conversation;
  c.turn_index = turn;
  c.num_turns = s.turns;
  c.x_correlation_id = s.x_correlation_id;
  c.url_index = s.url_index;
  c.intended_ns = intended;
  c.issued_ns = now;
  if (plan_.cancel_rate_pct > 0.0 &&
      core::uniform_unit(cancel_rng_) * 100.0 < plan_.cancel_rate_pct)
    c.cancel_after_ns = seconds(plan_.cancel_delay_s);
  if (plan_.prefill_concurrency) prefill_holders_.insert(c.id);
  return c;
}

int Scheduler::start_session(std::size_t conversation, core::MonoNs intended, core::MonoNs now,
                             std::vector<Credit>& out, int max_turns) {
  const std::int64_t id = next_session_id_++;
  ++sessions_started_;
  ++roots_active_;
  Session s;
  s.conversation = conversation;
  s.turns = conversation < shapes_.size() ? std::max(1, shapes_[conversation].turns) : 1;
  if (max_turns > 0) s.turns = std::min(s.turns, max_turns);
  // Shards start their round robin one URL apart.
  s.url_index = static_cast<int>((id + plan_.shard.index) % std::max(1, plan_.url_count));
  s.scheduled_ns = intended;
  s.x_correlation_id = core::uuid4();
  auto& stored = sessions_.emplace(id, std::move(s)).first->second;
  out.push_back(make_credit(id, stored, 0, intended, now));
  return stored.turns;
}

void Scheduler::start_users(core::MonoNs now, std::vector<Credit>& out) {
  while (can_send(now) && can_start_session() && !user_starts_.empty() &&
         user_starts_.top().at <= now && session_slot_free(now) && prefill_slot_free(now)) {
    if (!take_work()) return;
    const UserStart u = user_starts_.top();
    user_starts_.pop();
    const std::size_t conv = u.conversation ? *u.conversation : sampler_.next();
    const int turns = start_session(conv, u.at, now, out, u.max_turns);
    // The user who takes this one's place arrives when its last turn is due: an absolute
    // schedule, whatever the server's response times, so every start slot stays in use.
    user_starts_.push({u.at + turns * turn_gap_ns_, user_seq_++, std::nullopt, 0});
  }
}

void Scheduler::send_continuation(core::MonoNs intended, core::MonoNs now,
                                  std::vector<Credit>& out) {
  const Ready r = ready_.top();
  ready_.pop();
  auto it = sessions_.find(r.session);
  if (it == sessions_.end()) return;
  const int turn = it->second.next_turn++;
  out.push_back(make_credit(r.session, it->second, turn, intended, now));
}

void Scheduler::start_child(std::int64_t parent, const Spawn& spawn, core::MonoNs now) {
  auto pit = sessions_.find(parent);
  if (pit == sessions_.end() || spawn.child >= shapes_.size()) return;
  Session& p = pit->second;
  const std::int64_t id = next_session_id_++;
  ++children_started_;
  Session c;
  c.conversation = spawn.child;
  c.turns = std::max(1, shapes_[spawn.child].turns);
  c.next_turn = 0;  // its first turn goes out through the ready queue
  c.url_index = p.url_index;
  c.x_correlation_id = core::uuid4();
  c.root = false;
  c.parent = parent;
  c.parent_group = spawn.group;
  if (spawn.group) ++p.unfinished[*spawn.group];
  const core::MonoNs at = now + seconds(std::max(0.0, spawn.offset_ms) / 1000.0);
  c.scheduled_ns = at;
  sessions_.emplace(id, std::move(c));
  ready_.push({at, id});
}

bool Scheduler::joins_pending(const Session& s, int turn) const {
  for (const Join& j : shapes_[s.conversation].joins) {
    if (j.turn != turn) continue;
    if (auto it = s.unfinished.find(j.group); it != s.unfinished.end() && it->second > 0)
      return true;
  }
  return false;
}

void Scheduler::end_session(std::int64_t session, core::MonoNs now) {
  auto it = sessions_.find(session);
  if (it == sessions_.end()) return;
  const Session s = std::move(it->second);
  sessions_.erase(it);
  if (s.root) {
    --roots_active_;
    return;
  }
  if (!s.parent_group) return;  // background: nobody waits for it
  auto pit = sessions_.find(s.parent);
  if (pit == sessions_.end()) return;  // the parent has ended already
  Session& p = pit->second;
  --p.unfinished[*s.parent_group];
  if (p.held_at && !joins_pending(p, p.next_turn)) {
    // The joined turn goes out at its own due time, or now if the children ended later.
    ready_.push({std::max(*p.held_at, now), s.parent});
    p.held_at.reset();
  }
}

void Scheduler::finish(core::MonoNs now) {
  if (done_) return;
  done_ = true;
  sending_end_ns_ = end_ns_ ? std::min(now, *end_ns_) : now;
  ready_ = {};
}

void Scheduler::check_done(core::MonoNs now) {
  if (done_) return;
  // Sending ends with the last credit sent: one handed out ahead goes at its intended time.
  if (!can_send(now) || (!can_start_session() && sessions_.empty()))
    finish(std::max(now, last_intended_ns_));
}

void Scheduler::stop(core::MonoNs now) {
  finish(now);
}

void Scheduler::returned(std::int64_t credit_id, std::int64_t session, core::MonoNs now) {
  ++returned_;
  prefill_holders_.erase(credit_id);
  auto it = sessions_.find(session);
  if (it == sessions_.end()) return;
  Session& s = it->second;
  const SessionShape& shape = shapes_[s.conversation];
  if (!done_ && can_send(now)) {
    const int came_back = s.next_turn - 1;  // a session has one turn out at a time
    for (const Spawn& sp : shape.spawns)
      if (sp.after_turn == came_back) start_child(session, sp, now);
  }
  if (!done_ && s.next_turn < s.turns && can_send(now)) {
    const auto k = static_cast<std::size_t>(s.next_turn);
    core::MonoNs at = now;
    if (user_centric() && s.root) {
      // One turn gap after the previous turn was due; never before that turn returned.
      at = std::max(now, s.scheduled_ns + turn_gap_ns_);
      s.scheduled_ns = at;
    } else if (k < shape.timestamp_ms.size() && shape.timestamp_ms[k]) {
      // Fixed schedule: the turn's own trace time, but never before its previous turn returned.
      at = std::max(
          now, start_ns_ + seconds((*shape.timestamp_ms[k] - plan_.schedule_zero_ms) / 1000.0));
    } else if (k < shape.delay_ms.size() && shape.delay_ms[k] > 0.0) {
      at = now + seconds(shape.delay_ms[k] / 1000.0);
    }
    if (joins_pending(s, s.next_turn)) {
      s.held_at = at;  // sent when the last joined child ends (end_session)
    } else {
      ready_.push({at, session});
    }
  } else {
    end_session(session, now);
  }
  check_done(now);
}

void Scheduler::first_token(std::int64_t credit_id) {
  prefill_holders_.erase(credit_id);
}

bool Scheduler::take_work() {
  if (budget_ == 0) {
    more_due_ = true;
    return false;
  }
  if (budget_ != kUnbounded) --budget_;
  return true;
}

void Scheduler::poll(core::MonoNs now, std::vector<Credit>& out, std::size_t max_work,
                     core::MonoNs lead) {
  last_poll_ns_ = now;
  lead_ns_ = std::clamp<core::MonoNs>(lead, 0, hand_ahead_ns());
  budget_ = max_work;
  more_due_ = false;
  check_done(now);
  if (done_) return;
  if (rate_mode()) {
    poll_rate(now, out);
    return;
  }
  poll_sessions(now, out);
  check_done(now);
}

bool Scheduler::skip_stale(core::MonoNs now) {
  while (next_arrival_ns_ + kCatchUpWindowNs <= now) {
    if (!take_work()) return false;
    next_arrival_ns_ = next_owned_arrival(next_arrival_ns_);
    ++skipped_;
  }
  catching_up_ = false;
  return true;
}

void Scheduler::poll_rate(core::MonoNs now, std::vector<Credit>& out) {
  // A poll that ran out of budget while skipping goes on skipping before it sends anything.
  if (catching_up_ && !skip_stale(now)) return;
  while (!done_ && next_arrival_ns_ <= now + lead_ns_) {
    const core::MonoNs tick = next_arrival_ns_;
    // Handed out ahead only what is due before the duration's end: can_send() at its due time.
    if (tick > now && end_ns_ && tick >= *end_ns_) break;
    if (!take_work()) return;
    if (tick > now) last_intended_ns_ = tick;
    if (!ready_.empty() && ready_.top().at <= now) {
      if (!prefill_slot_free(now)) break;  // the arrival waits for a first token
      send_continuation(std::max(tick, ready_.top().at), now, out);
    } else if (can_start_session()) {
      if (session_slot_free(now) && prefill_slot_free(now)) {
        const std::size_t conv = pending_conversation_ ? *pending_conversation_ : sampler_.next();
        pending_conversation_.reset();
        start_session(conv, tick, now, out);
      } else {
        if (!pending_conversation_) pending_conversation_ = sampler_.next();
        ++dropped_;
      }
    } else {
      break;  // only later turns remain, and none is ready: the arrival waits for one
    }
    next_arrival_ns_ = next_owned_arrival(tick);
    catching_up_ = true;
    if (!skip_stale(now)) return;
    check_done(now);
  }
}

void Scheduler::poll_sessions(core::MonoNs now, std::vector<Credit>& out) {
  while (can_send(now) && !ready_.empty() && ready_.top().at <= now && prefill_slot_free(now)) {
    if (!take_work()) return;
    send_continuation(ready_.top().at, now, out);
  }
  if (plan_.fixed_schedule) {
    while (can_send(now) && can_start_session() && schedule_[schedule_pos_].at <= now &&
           session_slot_free(now) && prefill_slot_free(now)) {
      if (!take_work()) return;
      const PendingStart& p = schedule_[schedule_pos_++];
      start_session(p.conversation, p.at, now, out);
    }
  } else if (user_centric()) {
    start_users(now, out);
  } else {
    while (can_send(now) && can_start_session() && session_slot_free(now) &&
           prefill_slot_free(now)) {
      if (!take_work()) return;
      start_session(sampler_.next(), now, now, out);
    }
  }
}

bool Scheduler::wants_realtime_issuer() const {
  if (plan_.fixed_schedule) return true;
  // Credits handed out ahead are timed by the workers: the issuer's own wake-ups are not.
  if (hand_ahead_ns() > 0) return false;
  return (rate_mode() || user_centric()) && plan_.rate > 0 && plan_.rate <= 10'000;
}

bool Scheduler::returns_can_unblock() const {
  if (!rate_mode() || plan_.concurrency || plan_.prefill_concurrency || plan_.num_sessions)
    return true;
  return std::any_of(shapes_.begin(), shapes_.end(),
                     [](const SessionShape& s) { return s.turns > 1 || !s.spawns.empty(); });
}

std::optional<core::MonoNs> Scheduler::next_wakeup() const {
  if (done_) return std::nullopt;
  if (more_due_) return last_poll_ns_;  // the last poll() left due work for the next one
  std::optional<core::MonoNs> best;
  auto consider = [&](std::optional<core::MonoNs> t) {
    if (t && *t > last_poll_ns_ && (!best || *t < *best)) best = t;
  };
  if (end_ns_) consider(end_ns_);
  if (!ready_.empty()) consider(ready_.top().at);
  // Handing out ahead, the issuer comes back when half the lead is left, with a batch.
  if (rate_mode()) consider(next_arrival_ns_ - lead_ns_ / 2);
  if (!user_starts_.empty()) consider(user_starts_.top().at);
  if (plan_.fixed_schedule && schedule_pos_ < schedule_.size())
    consider(schedule_[schedule_pos_].at);
  consider(next_ramp_step(plan_.concurrency, plan_.concurrency_ramp_s, last_poll_ns_));
  consider(next_ramp_step(plan_.prefill_concurrency, plan_.prefill_ramp_s, last_poll_ns_));
  return best;
}

}  // namespace inferperf::timing
