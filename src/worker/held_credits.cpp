#include "worker/held_credits.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
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

void HeldCredits::release_if_due() {
  if (held_.empty() || held_.front().credit.intended_ns > core::SteadyClock::steady_now_ns())
    return;
  release_due();
}

void HeldCredits::withdraw_if_shut() {
  if (gate_.shut_at.load() != AheadGate::kOpen) release_due();
}

void HeldCredits::withdraw_from(core::MonoNs shut) {
  if (shut == AheadGate::kOpen) return;
  const auto cut =
      std::lower_bound(held_.begin(), held_.end(), shut,
                       [](const Held& h, core::MonoNs t) { return h.credit.intended_ns < t; });
  if (cut == held_.end()) return;
  std::deque<Held> back(std::make_move_iterator(cut), std::make_move_iterator(held_.end()));
  held_.erase(cut, held_.end());
  if (held_.empty()) {
    timer_.cancel();
    armed_for_ = -1;
  }
  for (Held& h : back) {
    gate_.held.fetch_sub(1, std::memory_order_relaxed);
    on_withdrawn_();
    // The last one may let the phase end and its listener go: nothing of it is touched after.
    h.listener->credit_withdrawn(h.credit);
  }
}

void HeldCredits::release_due() {
  if (releasing_) return;
  releasing_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{releasing_};
  for (;;) {
    withdraw_from(gate_.shut_at.load());
    if (held_.empty()) return;
    const core::MonoNs due = held_.front().credit.intended_ns;
    if (due - core::SteadyClock::steady_now_ns() > timing::PreciseWaiter::kSpinNs) {
      arm(due);
      return;
    }
    timing::PreciseWaiter::spin_until(due);
    // A stop that came while spinning keeps the credit back (withdrawn above): it was not due.
    if (due >= gate_.shut_at.load()) continue;
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
