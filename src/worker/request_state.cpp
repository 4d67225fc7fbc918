#include "worker/request_state.hpp"

#include <chrono>
#include <cmath>

namespace inferperf::worker {

using core::RequestErrorKind;

void RequestDeadlines::arm_timeout(double seconds) {
  timeouts.add(timeout, cancel,
               RequestTimeouts::Clock::now() + std::chrono::nanoseconds(static_cast<std::int64_t>(
                                                   std::llround(seconds * 1e9))));
}

void RequestDeadlines::arm_cancellation(const std::optional<std::int64_t>& after_ns) {
  if (!after_ns) return;
  if (!cancellation) {
    cancellation.emplace(timeouts.executor());
    cancellation_target = std::make_shared<transport::CancelHandle*>(&cancel);
  }
  cancellation->expires_after(std::chrono::nanoseconds(*after_ns));
  cancellation->async_wait([target = cancellation_target](const boost::system::error_code& ec) {
    if (!ec && *target != nullptr) {
      (*target)->cancel(RequestErrorKind::kRequestCancellation,
                        "request cancelled by --request-cancellation-rate", 499);
    }
  });
}

void RequestDeadlines::disarm() {
  timeout.leave();
  if (cancellation) {
    *cancellation_target = nullptr;
    cancellation->cancel();
  }
}

}  // namespace inferperf::worker
