// How the issuer thread waits: until an absolute monotonic deadline or until woken by an event
// (a credit return), whichever comes first.
#pragma once
#include <atomic>
#include <optional>

#include "core/clock.hpp"

namespace inferperf::timing {

class Waiter {
 public:
  virtual ~Waiter() = default;
  // Returns at `deadline` (steady clock) or earlier after notify(); nullopt waits for notify().
  virtual void wait_until(std::optional<core::MonoNs> deadline) = 0;
  // Thread-safe; a notify() before wait_until() makes that wait return at once.
  virtual void notify() = 0;
};

// epoll on an eventfd (notify) and an absolute CLOCK_MONOTONIC timerfd armed `spin_ns` before the
// deadline; the rest is spun on the clock. With the thread's timer slack at 1 ns the kernel wakes
// it within a few microseconds, so sends start within ~spin_ns of their deadline without a core
// spinning between arrivals. Deadlines never drift: they are absolute.
class PreciseWaiter final : public Waiter {
 public:
  // How long before a deadline the timer wakes the thread; the rest is spun (spin_until).
  static constexpr std::int64_t kSpinNs = 20'000;

  explicit PreciseWaiter(std::int64_t spin_ns = kSpinNs);
  ~PreciseWaiter() override;
  PreciseWaiter(const PreciseWaiter&) = delete;
  PreciseWaiter& operator=(const PreciseWaiter&) = delete;

  void wait_until(std::optional<core::MonoNs> deadline) override;
  void notify() override;
  // Sets the calling thread's timer slack to 1 ns (call from the waiting thread).
  static void tighten_timer_slack();
  // Spins on the steady clock until `deadline`: the last microseconds before a send, which no
  // scheduler wake-up is precise enough for. Used by this waiter and by the workers' held credits.
  static void spin_until(core::MonoNs deadline);
  // Tries to give the calling thread SCHED_FIFO priority 1; false when not permitted.
  static bool raise_priority();

 private:
  // Arms the timer `wake` (0: disarmed) unless it is armed there already.
  void arm_timer(core::MonoNs wake);

  std::int64_t spin_ns_;
  int epoll_fd_ = -1, event_fd_ = -1, timer_fd_ = -1;
  core::MonoNs armed_ns_ = 0;  // the timer's absolute expiry as last set; 0 = disarmed
  // Set by the notify() that writes the eventfd, cleared by the wait that reads it: the notify()s
  // in between write nothing. A closed loop returns a credit per request, and one write per wait,
  // not per return, is all the waiting thread needs to look at its events again.
  std::atomic<bool> wake_pending_{false};
};

}  // namespace inferperf::timing
