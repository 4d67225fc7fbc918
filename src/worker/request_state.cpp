#include "worker/request_state.hpp"

#include <chrono>
#include <cmath>

namespace inferperf::worker {

using core::RequestErrorKind;

void RequestDeadlines::arm_timeout(double seconds) {
  timeout.expires_after(
      std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(seconds * 1e9))));
  timeout.async_wait([cancel = cancel](const boost::system::error_code& ec) {
    if (!ec) {
      cancel->cancel(RequestErrorKind::kTimeout, "request exceeded --request-timeout-seconds",
                     std::nullopt);
    }
  });
}

void RequestDeadlines::arm_cancellation(const std::optional<std::int64_t>& after_ns) {
  if (!after_ns) return;
  if (!cancellation) cancellation.emplace(timeout.get_executor());  // the same io_context
  cancellation->expires_after(std::chrono::nanoseconds(*after_ns));
  cancellation->async_wait([cancel = cancel](const boost::system::error_code& ec) {
    if (!ec) {
      cancel->cancel(RequestErrorKind::kRequestCancellation,
                     "request cancelled by --request-cancellation-rate", 499);
    }
  });
}

void RequestDeadlines::disarm() {
  timeout.cancel();
  if (cancellation) cancellation->cancel();
}

}  // namespace inferperf::worker
