#include "timing/concurrency_issuer.hpp"

#include <chrono>
#include <cmath>

#include "core/uuid.hpp"

namespace inferperf::timing {

ConcurrencyIssuer::ConcurrencyIssuer(const core::Clock& clock, CreditSink& sink,
                                     ConcurrencyPlan plan, ShuffleSampler sampler)
    : clock_(clock), sink_(sink), plan_(plan), sampler_(std::move(sampler)) {}

void ConcurrencyIssuer::run() {
  phase_start_ns_ = clock_.now_ns();
  std::optional<core::MonoNs> end_ns;
  if (plan_.duration_s) {
    end_ns = phase_start_ns_ + static_cast<core::MonoNs>(std::llround(*plan_.duration_s * 1e9));
  }
  std::unique_lock lock(mu_);
  for (;;) {
    if (stopped_) break;
    if (plan_.request_count && issued_ >= *plan_.request_count) break;
    // A slot is free when fewer than N credits are outstanding.
    auto slot_free = [&] { return stopped_ || issued_ - returned_ < plan_.concurrency; };
    if (end_ns) {
      // The condition variable waits on the steady clock, which is what clock_ reads in production.
      auto remaining = std::chrono::nanoseconds(*end_ns - clock_.now_ns());
      if (remaining.count() <= 0) break;
      if (!cv_.wait_for(lock, remaining, slot_free)) continue;
    } else {
      cv_.wait(lock, slot_free);
    }
    if (stopped_) break;
    if (end_ns && clock_.now_ns() >= *end_ns) break;
    Credit c;
    c.id = issued_;
    c.phase = plan_.phase;
    c.conversation_index = sampler_.next();
    c.turn_index = 0;
    c.x_correlation_id = core::uuid4();
    // Closed loop: the request is due the moment its slot frees up, so intended = issue time.
    c.issued_ns = clock_.now_ns();
    c.intended_ns = c.issued_ns;
    ++issued_;
    lock.unlock();
    sink_.dispatch(std::move(c));
    lock.lock();
  }
  sending_end_ns_ = clock_.now_ns();
}

void ConcurrencyIssuer::credit_returned() {
  {
    std::lock_guard lock(mu_);
    ++returned_;
  }
  cv_.notify_all();
}

void ConcurrencyIssuer::stop() {
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
  }
  cv_.notify_all();
}

bool ConcurrencyIssuer::wait_all_returned(std::optional<core::MonoNs> deadline_ns) {
  std::unique_lock lock(mu_);
  auto done = [&] { return returned_ >= issued_; };
  if (!deadline_ns) {
    cv_.wait(lock, done);
    return true;
  }
  auto remaining = std::chrono::nanoseconds(*deadline_ns - clock_.now_ns());
  if (remaining.count() <= 0) return done();
  return cv_.wait_for(lock, remaining, done);
}

std::int64_t ConcurrencyIssuer::issued() const {
  std::lock_guard lock(mu_);
  return issued_;
}

std::int64_t ConcurrencyIssuer::returned() const {
  std::lock_guard lock(mu_);
  return returned_;
}

}  // namespace inferperf::timing
