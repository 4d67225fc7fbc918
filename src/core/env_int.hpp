// Whole-number settings read from the environment (test hooks and tuning knobs such as
// INFERPERF_HAND_AHEAD_US): one parser, so every such variable treats an empty, malformed or
// out-of-range value the same way.
#pragma once
#include <cstdint>

namespace inferperf::core {

struct EnvInt {
  enum class State { kUnset, kValid, kInvalid };
  State state = State::kUnset;  // unset also when empty
  std::int64_t value = 0;       // kValid only
  bool valid() const { return state == State::kValid; }
};

// Environment variable `name` as a base-10 integer in [min, max]: kUnset when absent or empty,
// kInvalid when it holds anything else (trailing characters, a value out of range).
EnvInt env_int(const char* name, std::int64_t min, std::int64_t max);

}  // namespace inferperf::core
