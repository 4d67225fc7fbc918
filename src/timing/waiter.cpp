#include "timing/waiter.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <system_error>

namespace inferperf::timing {

namespace {
void check(int rc, const char* what) {
  if (rc < 0) throw std::system_error(errno, std::generic_category(), what);
}
}  // namespace

PreciseWaiter::PreciseWaiter(std::int64_t spin_ns) : spin_ns_(spin_ns) {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  check(epoll_fd_, "epoll_create1");
  event_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  check(event_fd_, "eventfd");
  // steady_clock is CLOCK_MONOTONIC on Linux, so deadlines from core::Clock arm the timer as is.
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  check(timer_fd_, "timerfd_create");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = event_fd_;
  check(epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, event_fd_, &ev), "epoll_ctl");
  ev.data.fd = timer_fd_;
  check(epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, timer_fd_, &ev), "epoll_ctl");
}

PreciseWaiter::~PreciseWaiter() {
  for (int fd : {timer_fd_, event_fd_, epoll_fd_}) {
    if (fd >= 0) close(fd);
  }
}

void PreciseWaiter::tighten_timer_slack() {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

bool PreciseWaiter::raise_priority() {
  // A real-time priority lets the issuer preempt the client's own workers the moment its timer
  // fires; it needs CAP_SYS_NICE (root or a container granting it), otherwise nothing changes.
  sched_param param{};
  param.sched_priority = 1;
  return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0;
}

void PreciseWaiter::notify() {
  if (wake_pending_.exchange(true, std::memory_order_acq_rel)) return;
  const std::uint64_t one = 1;
  // EAGAIN (counter saturated) still leaves the eventfd readable, which is all that matters.
  [[maybe_unused]] auto n = write(event_fd_, &one, sizeof one);
}

void PreciseWaiter::wait_until(std::optional<core::MonoNs> deadline) {
  for (;;) {
    const core::MonoNs now = core::SteadyClock::steady_now_ns();
    if (deadline && *deadline <= now) return;
    if (deadline && *deadline - now <= spin_ns_) break;
    // No deadline disarms the timer: only an event ends the wait.
    arm_timer(deadline ? *deadline - spin_ns_ : 0);
    epoll_event events[2];
    int n;
    do {
      n = epoll_wait(epoll_fd_, events, 2, -1);
    } while (n < 0 && errno == EINTR);
    bool woken = false;
    for (int i = 0; i < n; ++i) {
      std::uint64_t value;
      [[maybe_unused]] auto r = read(events[i].data.fd, &value, sizeof value);
      if (events[i].data.fd == event_fd_) {
        woken = true;
        // After the read: a notify() from here on writes again and wakes the next wait.
        wake_pending_.store(false, std::memory_order_release);
      } else {
        armed_ns_ = 0;  // a one-shot timer that fired is disarmed
      }
    }
    if (woken) return;
    // A timer expiry: loop, which spins the rest (or re-arms after a stale expiry).
  }
  spin_until(*deadline);
}

void PreciseWaiter::arm_timer(core::MonoNs wake) {
  // One system call less per wait when the deadline did not move (a closed loop never has one).
  if (wake == armed_ns_) return;
  itimerspec spec{};  // a zero it_value disarms
  spec.it_value.tv_sec = wake / 1'000'000'000;
  spec.it_value.tv_nsec = wake % 1'000'000'000;
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &spec, nullptr);
  armed_ns_ = wake;
}

void PreciseWaiter::spin_until(core::MonoNs deadline) {
  while (core::SteadyClock::steady_now_ns() < deadline) {
    // The last microseconds are spun: no scheduler wake-up is that precise.
  }
}

}  // namespace inferperf::timing
