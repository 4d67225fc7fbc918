#include "timing/issuer_loop.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace inferperf::timing {

void CreditSink::dispatch_ahead(Credit /*credit*/, WithdrawListener& /*listener*/) {
  throw std::logic_error("a credit was handed out ahead to a sink that holds none");
}

IssuerLoop::IssuerLoop(const core::Clock& clock, Waiter& waiter, Scheduler& scheduler,
                       CreditSink& sink)
    : clock_(clock), waiter_(waiter), scheduler_(scheduler), sink_(sink) {}

void IssuerLoop::run() {
  PreciseWaiter::tighten_timer_slack();
  if (scheduler_.wants_realtime_issuer()) realtime_ = PreciseWaiter::raise_priority();
  {
    std::lock_guard sched(scheduler_mu_);
    wake_on_return_.store(scheduler_.returns_can_unblock());
    // Not where arrivals follow a clock (rate modes with a ceiling, fixed schedules): there the
    // issuer may run at real-time priority, and it would wait on this mutex behind a
    // normal-priority worker, and its arrivals with it.
    inline_returns_.store(scheduler_.returns_can_unblock() && !scheduler_.wants_realtime_issuer());
    lead_ = sink_.holds_ahead() ? scheduler_.hand_ahead_ns() : 0;
  }
  {
    std::lock_guard lock(mu_);
    running_ = true;
    // A stop() before the run has withdrawn already: the gate stays shut.
    if (!stop_requested_) sink_.open_ahead();
  }
  std::vector<Event> events;
  core::MonoNs end_ns = 0;
  for (;;) {
    std::optional<core::MonoNs> deadline;
    {
      std::lock_guard sched(scheduler_mu_);
      bool stop = false;
      {
        std::lock_guard lock(mu_);
        events.swap(events_);
        stop = stop_requested_;
      }
      for (const Event& e : events) {
        const core::MonoNs now = clock_.now_ns();
        if (e.kind == Event::Kind::kReturned)
          scheduler_.returned(e.credit_id, e.session, now);
        else if (e.kind == Event::Kind::kFirstToken)
          scheduler_.first_token(e.credit_id);
        else
          scheduler_.set_session_limit(static_cast<int>(e.session));
      }
      events.clear();
      if (stop) scheduler_.stop(clock_.now_ns());
      issue_locked(clock_.now_ns());
      if (scheduler_.sending_done()) {
        end_ns = scheduler_.sending_end_ns();
        // Still under the scheduler mutex: from here no worker's inline return (which checks
        // running_ under it) touches the scheduler, so it is the phase's alone once run() returns.
        std::lock_guard lock(mu_);
        running_ = false;
        break;
      }
      deadline = scheduler_.next_wakeup();
      issuer_deadline_ = deadline;
    }
    waiter_.wait_until(deadline);
  }
  std::lock_guard lock(mu_);
  sending_end_ns_ = end_ns;
  cv_.notify_all();
}

void IssuerLoop::issue_locked(core::MonoNs now) {
  credits_.clear();
  scheduler_.poll(now, credits_, kPollBudget, lead_);
  {
    std::lock_guard lock(mu_);
    issued_ += static_cast<std::int64_t>(credits_.size());
    dropped_ = scheduler_.dropped_arrivals();
  }
  for (auto& c : credits_) {
    if (c.intended_ns > now)
      sink_.dispatch_ahead(std::move(c), *this);
    else
      sink_.dispatch(std::move(c));
  }
}

bool IssuerLoop::returned_inline(std::span<const ReturnedCredit> credits) {
  std::unique_lock sched(scheduler_mu_, std::try_to_lock);
  if (!sched.owns_lock()) return false;  // the issuer is at work: it takes them from the queue
  {
    std::lock_guard lock(mu_);
    // Queued events came first and a stop must be seen first: the issuer handles both.
    if (!running_ || stop_requested_ || !events_.empty()) return false;
  }
  const core::MonoNs now = clock_.now_ns();
  for (const ReturnedCredit& c : credits) scheduler_.returned(c.id, c.session, now);
  issue_locked(now);
  // The issuer sleeps to the deadline it last computed: woken only when these returns made the
  // schedule due sooner (a session's next turn after its delay, more due than one poll sends) or
  // ended it.
  const std::optional<core::MonoNs> next = scheduler_.next_wakeup();
  const bool wake =
      scheduler_.sending_done() || (next && (!issuer_deadline_ || *next < *issuer_deadline_));
  if (wake) issuer_deadline_ = next;
  sched.unlock();
  bool notify = false;
  {
    // Counted last, with the wake-up's guard taken under the same lock: once wait_all_returned()
    // can see these returns, this thread only touches the loop through wake_unlocked(), which the
    // destructor waits for.
    std::lock_guard lock(mu_);
    returned_ += static_cast<std::int64_t>(credits.size());
    notify = end_locked(wake);
  }
  if (notify) wake_unlocked();
  return true;
}

IssuerLoop::~IssuerLoop() {
  // A push() may still be inside waiter_.notify() after its unlock (see push()).
  while (notifying_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}

bool IssuerLoop::add_locked(const Event& e) {
  if (e.kind == Event::Kind::kReturned) ++returned_;
  // A limit is kept even before run() starts (it applies from the first poll); returns and first
  // tokens only matter to a running schedule.
  if (running_ || e.kind == Event::Kind::kSessionLimit) events_.push_back(e);
  // Returns that cannot unblock the schedule wait for the next arrival to be processed.
  return e.kind != Event::Kind::kReturned || wake_on_return_.load(std::memory_order_relaxed);
}

bool IssuerLoop::end_locked(bool wake) {
  cv_.notify_all();
  if (wake) notifying_.fetch_add(1, std::memory_order_relaxed);
  return wake;
}

void IssuerLoop::wake_unlocked() {
  // The wake-up goes out after the unlock: issued under the lock, it let the issuer (woken on
  // this core) preempt this thread only to block on the lock this thread still held, a futex
  // round trip per returned credit. Once the lock is released a waiter in wait_all_returned()
  // may see the last return, but it destroys this loop (and then the waiter, declared first)
  // only after the destructor has seen notifying_ back at zero.
  waiter_.notify();
  notifying_.fetch_sub(1, std::memory_order_release);
}

void IssuerLoop::push(const Event& e) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    wake = end_locked(add_locked(e));
  }
  if (wake) wake_unlocked();
}

void IssuerLoop::credits_returned(std::span<const ReturnedCredit> credits) {
  if (inline_returns_.load(std::memory_order_relaxed) && returned_inline(credits)) return;
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    for (const ReturnedCredit& c : credits)
      wake = add_locked({Event::Kind::kReturned, c.id, c.session}) || wake;
    wake = end_locked(wake);
  }
  if (wake) wake_unlocked();
}

void IssuerLoop::first_token(std::int64_t credit_id) {
  push({Event::Kind::kFirstToken, credit_id, 0});
}

void IssuerLoop::set_session_limit(int limit) {
  push({Event::Kind::kSessionLimit, 0, limit});
}

void IssuerLoop::stop(bool everything) {
  {
    std::lock_guard lock(mu_);
    stop_requested_ = true;
    waiter_.notify();
  }
  // Outside the lock: a worker giving a credit back takes it.
  sink_.withdraw_ahead(everything);
}

void IssuerLoop::credit_withdrawn(const Credit& /*credit*/) {
  // Under the lock throughout, as push(): the last withdrawal may let wait_all_returned() end.
  std::lock_guard lock(mu_);
  --issued_;
  ++withdrawn_;
  cv_.notify_all();
}

std::int64_t IssuerLoop::sent() const {
  // Off by the credits that cross between the two reads while the phase runs; exact after it.
  const std::int64_t held = sink_.held_ahead();
  return std::max<std::int64_t>(0, issued() - held);
}

std::int64_t IssuerLoop::withdrawn() const {
  std::lock_guard lock(mu_);
  return withdrawn_;
}

bool IssuerLoop::wait_all_returned(std::optional<core::MonoNs> deadline_ns) {
  std::unique_lock lock(mu_);
  auto done = [&] { return !running_ && returned_ >= issued_; };
  if (!deadline_ns) {
    cv_.wait(lock, done);
    return true;
  }
  // The condition variable waits on the steady clock, which is what clock_ reads in production.
  auto remaining = std::chrono::nanoseconds(*deadline_ns - clock_.now_ns());
  if (remaining.count() <= 0) return done();
  return cv_.wait_for(lock, remaining, done);
}

std::int64_t IssuerLoop::issued() const {
  std::lock_guard lock(mu_);
  return issued_;
}

std::int64_t IssuerLoop::returned() const {
  std::lock_guard lock(mu_);
  return returned_;
}

std::int64_t IssuerLoop::dropped_arrivals() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

core::MonoNs IssuerLoop::sending_end_ns() const {
  std::lock_guard lock(mu_);
  return sending_end_ns_;
}

}  // namespace inferperf::timing
