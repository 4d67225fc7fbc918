// Clocks: every component that reads time takes a Clock& so tests can use a fake one.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>

namespace inferperf::core {

// Monotonic nanoseconds (steady_clock epoch). Durations are always differences of these.
using MonoNs = std::int64_t;
// Nanoseconds since the Unix epoch, only ever derived from a WallAnchor.
using WallNs = std::int64_t;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual MonoNs now_ns() const = 0;
};

class SteadyClock final : public Clock {
 public:
  MonoNs now_ns() const override { return steady_now_ns(); }
  static MonoNs steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

class FakeClock final : public Clock {
 public:
  explicit FakeClock(MonoNs start = 0) : now_(start) {}
  MonoNs now_ns() const override { return now_.load(); }
  void advance_ns(std::int64_t d) { now_.fetch_add(d); }
  void set_ns(MonoNs t) { now_.store(t); }

 private:
  std::atomic<MonoNs> now_;
};

// One wall-clock reading paired with one monotonic reading, taken once per run. Exports convert
// monotonic stamps to epoch time through it, so wall-clock jumps never distort a duration.
struct WallAnchor {
  MonoNs mono_ns = 0;
  WallNs wall_ns = 0;

  static WallAnchor capture();
  WallNs to_wall(MonoNs t) const { return wall_ns + (t - mono_ns); }
};

}  // namespace inferperf::core
