#include "worker/held_credits.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "timing/waiter.hpp"

namespace inferperf::worker {

HeldCredits::HeldCredits(boost::asio::io_context& io, const core::Clock& clock, AheadGate& gate,
                         Release release, std::function<void()> on_withdrawn)
    : clock_(clock),
      gate_(gate),
      release_(std::move(release)),
      on_withdrawn_(std::move(on_withdrawn)),
      timer_(io) {}

void HeldCredits::hold(timing::Credit credit, timing::WithdrawListener& listener) {
  const core::MonoNs due = credit.intended_ns;
  auto at = std::upper_bound(held_.begin(), held_.end(), due, [](core::MonoNs t, const Held& h) {
    return t < h.credit.intended_ns;
  });
  held_.insert(at, Held{std::move(credit), &listener});
  release_due();
}

void HeldCredits::withdraw_if_shut() {
  if (!gate_.open.load()) withdraw_all();
}

void HeldCredits::withdraw_all() {
  timer_.cancel();
  armed_for_ = -1;
  std::deque<Held> back;
  back.swap(held_);
  for (Held& h : back) {
    gate_.held.fetch_sub(1, std::memory_order_relaxed);
    on_withdrawn_();
    // The last one may let the phase end and its listener go: nothing of it is touched after.
    h.listener->credit_withdrawn(h.credit);
  }
}

void HeldCredits::release_due() {
  while (!held_.empty()) {
    if (!gate_.open.load()) {
      withdraw_all();
      return;
    }
    const core::MonoNs due = held_.front().credit.intended_ns;
    if (due - core::SteadyClock::steady_now_ns() > timing::PreciseWaiter::kSpinNs) {
      arm(due);
      return;
    }
    timing::PreciseWaiter::spin_until(due);
    // A stop while spinning still keeps the credit back: it was not due when the stop came.
    if (!gate_.open.load()) {
      withdraw_all();
      return;
    }
    gate_.held.fetch_sub(1, std::memory_order_relaxed);
    timing::Credit c = std::move(held_.front().credit);
    held_.pop_front();
    c.issued_ns = clock_.now_ns();
    release_(std::move(c));
  }
}

void HeldCredits::arm(core::MonoNs due) {
  if (armed_for_ == due) return;
  armed_for_ = due;
  // steady_clock is the clock intended times are read from (core::SteadyClock).
  const std::chrono::steady_clock::time_point wake{
      std::chrono::nanoseconds(due - timing::PreciseWaiter::kSpinNs)};
  timer_.expires_at(wake);  // cancels the wait for a later credit, if any
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // re-armed or withdrawn
    armed_for_ = -1;
    release_due();
  });
}

}  // namespace inferperf::worker
