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
  explicit PreciseWaiter(std::int64_t spin_ns = 20'000);
  ~PreciseWaiter() override;
  PreciseWaiter(const PreciseWaiter&) = delete;
  PreciseWaiter& operator=(const PreciseWaiter&) = delete;

  void wait_until(std::optional<core::MonoNs> deadline) override;
  void notify() override;
  // Sets the calling thread's timer slack to 1 ns (call from the waiting thread).
  static void tighten_timer_slack();
  // Tries to give the calling thread SCHED_FIFO priority 1; false when not permitted.
  static bool raise_priority();

 private:
  std::int64_t spin_ns_;
  int epoll_fd_ = -1, event_fd_ = -1, timer_fd_ = -1;
};

}  // namespace inferperf::timing
