// The issuer thread: asks the Scheduler what is due, hands credits to the workers, sleeps to the
// next absolute deadline, and feeds back returns and first tokens that workers report from their
// own threads. Where returns decide the sends and no arrival clock does (closed loops, sessions:
// returns_can_unblock() and not wants_realtime_issuer()), a worker reporting returns while the
// issuer sleeps feeds them to the Scheduler itself and dispatches what they release, so a closed
// loop's next request needs no wake-up of another thread; the Scheduler and the sink's dispatch
// are only ever used under one mutex, in the order the events came (docs/decisions.md, "Returns
// issue on the worker's thread"). Where the scheduler allows it (open-loop rate modes) and the
// sink can hold credits, arrivals are handed out up to Scheduler::hand_ahead_ns() before they are
// due, and the worker that holds one times and sends it itself: no thread hand-off between the
// deadline and the send.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "core/clock.hpp"
#include "timing/credit.hpp"
#include "timing/scheduler.hpp"
#include "timing/waiter.hpp"

namespace inferperf::timing {

class IssuerLoop final : public WithdrawListener {
 public:
  // Credits (or skipped and dropped arrivals) handled between two looks at stop(): however far
  // behind an always-due schedule is (a fixed schedule of a million past timestamps, a catch-up at
  // the highest rate), a stop is seen after at most this much work, well within 100 ms.
  static constexpr std::size_t kPollBudget = 256;

  IssuerLoop(const core::Clock& clock, Waiter& waiter, Scheduler& scheduler, CreditSink& sink);
  // Waits for a push() still waking the waiter: the waiter must outlive this loop.
  ~IssuerLoop() override;

  // Runs until the scheduler is done sending (count, sessions, duration) or stop() is called.
  void run();
  // Any thread: requests finished; one wake-up of the issuer for all of them.
  void credits_returned(std::span<const ReturnedCredit> credits);
  // Any thread: a streaming request produced its first token.
  void first_token(std::int64_t credit_id);
  // Any thread: the session limit from now on (adaptive scale; Scheduler::set_session_limit).
  void set_session_limit(int limit);
  // Any thread: stop sending now; credits handed out ahead and not yet due are withdrawn (with
  // `everything`, all credits still held, due or not: a grace period is over).
  void stop(bool everything = false);
  // The holding worker's thread: a credit handed out ahead was withdrawn unsent; it no longer
  // counts as issued.
  void credit_withdrawn(const Credit& credit) override;
  // Waits until every issued credit has returned or `deadline_ns` (monotonic) passes.
  bool wait_all_returned(std::optional<core::MonoNs> deadline_ns);

  // Credits handed out (those held ahead included), less those withdrawn.
  std::int64_t issued() const;
  std::int64_t withdrawn() const;
  // issued() less the credits still held ahead: those actually let go to be sent.
  std::int64_t sent() const;
  std::int64_t returned() const;
  std::int64_t dropped_arrivals() const;
  core::MonoNs sending_end_ns() const;
  // Whether the issuer thread got a real-time priority (see PreciseWaiter::raise_priority).
  bool realtime() const { return realtime_.load(); }

 private:
  struct Event {
    enum class Kind { kReturned, kFirstToken, kSessionLimit } kind;
    std::int64_t credit_id;
    std::int64_t session;  // kSessionLimit: the limit
  };
  // Under scheduler_mu_: polls the scheduler at `now` and sends what is due.
  void issue_locked(core::MonoNs now);
  // Feeds returns to the scheduler on the calling thread and sends what they release; false (and
  // nothing done) while the issuer thread holds the scheduler, has events queued before these, or
  // is not running.
  bool returned_inline(std::span<const ReturnedCredit> credits);
  // Under mu_: records one event; whether the issuer must be woken for it.
  bool add_locked(const Event& e);
  // Under mu_, after the events: wakes wait_all_returned() and, with `wake`, counts the wake-up
  // about to go out after the unlock (wake_unlocked()); returns `wake`.
  bool end_locked(bool wake);
  void wake_unlocked();
  void push(const Event& e);

  const core::Clock& clock_;
  Waiter& waiter_;
  Scheduler& scheduler_;
  CreditSink& sink_;
  // The scheduler, the sink's dispatch and the fields below it: held by the issuer thread from
  // taking its events to computing its next deadline, and by a worker handling returns inline.
  // Taken before mu_ when both are held.
  std::mutex scheduler_mu_;
  std::vector<Credit> credits_;                  // issue_locked()'s scratch
  core::MonoNs lead_ = 0;                        // hand-ahead look-ahead of every poll
  std::optional<core::MonoNs> issuer_deadline_;  // what the issuer sleeps until (nullopt: an event)
  std::atomic<bool> inline_returns_{false};      // set by run(): returns_can_unblock()
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Event> events_;
  bool stop_requested_ = false;
  std::atomic<bool> wake_on_return_{true};
  std::atomic<bool> realtime_{false};
  std::atomic<int> notifying_{0};  // push() calls between their unlock and their notify's end
  bool running_ = false;
  std::int64_t issued_ = 0, returned_ = 0, dropped_ = 0, withdrawn_ = 0;
  core::MonoNs sending_end_ns_ = 0;
};

}  // namespace inferperf::timing
