// What the scheduler tests share: a start time, a millisecond and a poll that returns what was due.
// One header, so that the test files of one binary can be compiled as one unity batch.
#pragma once

#include <vector>

#include "timing/scheduler.hpp"

namespace inferperf::timing::fixture {

inline constexpr core::MonoNs kStart = 1'000'000'000;
inline constexpr core::MonoNs kMs = 1'000'000;

inline std::vector<Credit> poll(Scheduler& s, core::MonoNs now) {
  std::vector<Credit> out;
  s.poll(now, out);
  return out;
}

}  // namespace inferperf::timing::fixture
