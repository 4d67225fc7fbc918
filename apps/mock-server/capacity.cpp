#include "capacity.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace inferperf::mock {

namespace asio = boost::asio;

Slot& Slot::operator=(Slot&& o) noexcept {
  if (this != &o) {
    if (gate_) gate_->release();
    gate_ = o.gate_;
    waited_ = o.waited_;
    o.gate_ = nullptr;
  }
  return *this;
}

Slot::~Slot() {
  if (gate_) gate_->release();
}

SlotGate::SlotGate(int slots) : slots_(slots) {}

int SlotGate::queued() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(queue_.size());
}

void SlotGate::release() {
  std::lock_guard lock(mu_);
  if (!queue_.empty()) {
    // Handed over: the count of slots held does not change. The waiter's wait starts under mu_
    // (wait_for_grant): if it has started, the cancel ends it; if not, it sees `granted` first.
    const auto w = std::move(queue_.front());
    queue_.pop_front();
    w->granted = true;
    w->timer.cancel();
    return;
  }
  --held_;
  active_.store(held_, std::memory_order_relaxed);
}

SlotGate::Leave::~Leave() {
  if (taken) return;
  bool pass_on = false;
  {
    std::lock_guard lock(gate.mu_);
    pass_on = w->granted;
    if (!pass_on) std::erase(gate.queue_, w);
  }
  if (pass_on) gate.release();
}

// The wait starts under mu_, so release() either finds it started (and cancels it) or leaves
// `granted` set for it to see here before it starts: no grant is lost between the queueing and
// the wait, and the timer is never touched by two threads at once.
template <typename Token>
auto SlotGate::wait_for_grant(const std::shared_ptr<Waiter>& w, Token&& token) {
  return asio::async_initiate<Token, void(boost::system::error_code)>(
      [this, w](auto handler) {
        std::lock_guard lock(mu_);
        if (w->granted) {
          const auto ex = asio::get_associated_executor(handler, w->timer.get_executor());
          asio::post(ex, [h = std::move(handler)]() mutable { std::move(h)({}); });
          return;
        }
        w->timer.async_wait(std::move(handler));
      },
      token);
}

asio::awaitable<Slot> SlotGate::acquire() {
  const auto executor = co_await asio::this_coro::executor;
  std::shared_ptr<Waiter> w;
  {
    std::lock_guard lock(mu_);
    if (slots_ <= 0 || (held_ < slots_ && queue_.empty())) {
      ++held_;
      active_.store(held_, std::memory_order_relaxed);
      co_return Slot(this, false);
    }
    w = std::make_shared<Waiter>(executor);
    w->timer.expires_at(asio::steady_timer::time_point::max());
    queue_.push_back(w);
  }
  Leave leave{*this, w};
  boost::system::error_code ec;
  co_await wait_for_grant(w, asio::redirect_error(asio::use_awaitable, ec));
  {
    std::lock_guard lock(mu_);
    if (!w->granted) co_return Slot();  // cancelled for another reason; Leave leaves the queue
  }
  leave.taken = true;
  co_return Slot(this, true);
}

std::chrono::nanoseconds token_gap(std::chrono::nanoseconds itl,
                                   std::chrono::nanoseconds per_stream, int active) {
  return itl + per_stream * std::max(0, active - 1);
}

std::chrono::nanoseconds prefill_delay(std::chrono::nanoseconds per_token,
                                       std::int64_t prompt_tokens) {
  return per_token * std::max<std::int64_t>(0, prompt_tokens);
}

}  // namespace inferperf::mock
