// Credits handed to a worker before they are due (timing::CreditSink::dispatch_ahead). The
// worker's own thread holds them in intended-time order and lets each go at its intended time: an
// Asio timer on the worker's loop wakes it timing::PreciseWaiter::kSpinNs early and the rest is
// spun (PreciseWaiter::spin_until), so the thread that timed an arrival is the one that sends it.
// A shut gate (a stop) gives every held credit back unsent. Everything but the gate runs on the
// worker's thread.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>

#include "core/clock.hpp"
#include "timing/credit.hpp"

namespace inferperf::worker {

// Shared by a pool's workers: the gate a stop shuts, and how many credits are held (handed out,
// not yet sent or given back) for the live view's "sent".
struct AheadGate {
  std::atomic<bool> open{true};
  std::atomic<std::int64_t> held{0};
};

class HeldCredits {
 public:
  // `release` sends a credit that is due (issued_ns stamped); `on_withdrawn` runs for each credit
  // given back, before its listener is told. Each credit leaving (either way) lowers gate.held.
  using Release = std::function<void(timing::Credit)>;
  HeldCredits(boost::asio::io_context& io, const core::Clock& clock, AheadGate& gate,
              Release release, std::function<void()> on_withdrawn);

  // Holds `credit` (already counted in gate.held) until its intended time (sent at once when
  // already due).
  void hold(timing::Credit credit, timing::WithdrawListener& listener);
  // Gives every held credit back if the gate is shut; nothing otherwise.
  void withdraw_if_shut();
  std::size_t size() const { return held_.size(); }

 private:
  struct Held {
    timing::Credit credit;
    timing::WithdrawListener* listener;
  };
  // Sends what is due (spinning the last microseconds) and re-arms the timer for the next one.
  void release_due();
  void withdraw_all();
  void arm(core::MonoNs due);

  const core::Clock& clock_;
  AheadGate& gate_;
  Release release_;
  std::function<void()> on_withdrawn_;
  std::deque<Held> held_;  // by intended time; equal times keep their hand-out order
  boost::asio::steady_timer timer_;
  core::MonoNs armed_for_ = -1;  // the intended time the timer is armed for; -1: none
};

}  // namespace inferperf::worker
