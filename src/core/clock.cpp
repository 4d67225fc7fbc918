#include "core/clock.hpp"

namespace inferperf::core {

WallAnchor WallAnchor::capture() {
  // Take the monotonic reading between two wall readings and use their midpoint, which halves the
  // error introduced by being descheduled between the calls.
  auto w1 = std::chrono::system_clock::now();
  MonoNs m = SteadyClock::steady_now_ns();
  auto w2 = std::chrono::system_clock::now();
  auto to_ns = [](auto tp) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(tp.time_since_epoch()).count();
  };
  return WallAnchor{m, to_ns(w1) + (to_ns(w2) - to_ns(w1)) / 2};
}

}  // namespace inferperf::core
