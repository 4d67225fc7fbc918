// Credits handed to a worker before they are due (timing::CreditSink::dispatch_ahead). The
// worker's own thread holds them in intended-time order and lets each go at its intended time: an
// Asio timer on the worker's loop wakes it timing::PreciseWaiter::kSpinNs early and the rest is
// spun (PreciseWaiter::spin_until), or a request's completion finds it due first
// (release_if_due), so the thread that timed an arrival is the one that sends it.
// A shut gate (a stop) gives back unsent every held credit intended at or after the moment it was
// shut; one intended before it still goes, so a worker whose timer ran late does not cut a hole in
// the global arrival sequence that another worker carried on past. Everything but the gate runs on
// the worker's thread.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>

#include "core/clock.hpp"
#include "timing/credit.hpp"

namespace inferperf::worker {

// Shared by a pool's workers: the gate a stop shuts, and how many credits are held (handed out,
// not yet sent or given back) for the live view's "sent".
struct AheadGate {
  static constexpr core::MonoNs kOpen = std::numeric_limits<core::MonoNs>::max();
  // The stop's time (core::SteadyClock), kOpen while credits may be sent.
  std::atomic<core::MonoNs> shut_at{kOpen};
  std::atomic<std::int64_t> held{0};
  // The earliest cut wins: a second stop (the failure threshold, a repeated signal) cannot let
  // through credits the first one withdrew; kEverything withdraws all that is held.
  static constexpr core::MonoNs kEverything = std::numeric_limits<core::MonoNs>::min();
  void shut(core::MonoNs at) {
    core::MonoNs cur = shut_at.load();
    while (at < cur && !shut_at.compare_exchange_weak(cur, at)) {
    }
  }
  void open() { shut_at.store(kOpen); }
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
  // If the gate is shut: gives back every held credit intended at or after the stop and sends
  // the rest (due before it); nothing otherwise.
  void withdraw_if_shut();
  // When the first held credit is due, sends it (and, as the timer's release does, those due
  // within the spin after it). The worker calls it at each request's completion: the timer's
  // handler waits behind every completion queued before it, so a batch of responses made the
  // arrivals late.
  void release_if_due();
  std::size_t size() const { return held_.size(); }

 private:
  struct Held {
    timing::Credit credit;
    timing::WithdrawListener* listener;
  };
  // Sends what is due (spinning the last microseconds) and re-arms the timer for the next one.
  // Not re-entered: a credit it sends may start a request that completes at once (a body that
  // cannot be built), whose completion calls release_if_due; the loop here sends what is due.
  void release_due();
  // Gives back every held credit intended at or after `shut` (nothing when kOpen).
  void withdraw_from(core::MonoNs shut);
  void arm(core::MonoNs due);

  const core::Clock& clock_;
  AheadGate& gate_;
  Release release_;
  std::function<void()> on_withdrawn_;
  std::deque<Held> held_;  // by intended time; equal times keep their hand-out order
  boost::asio::steady_timer timer_;
  core::MonoNs armed_for_ = -1;  // the intended time the timer is armed for; -1: none
  bool releasing_ = false;       // release_due is on the stack
};

}  // namespace inferperf::worker
