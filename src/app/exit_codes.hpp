// The exit codes of `inferperf profile` (product decisions, README "Exit codes").
#pragma once

namespace inferperf::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;  // no valid record, an export failed, a failed run
inline constexpr int kExitBadConfig = 2;  // bad command line or input: nothing was sent
inline constexpr int kExitSignal = 130;   // stopped by SIGINT/SIGTERM after exporting

}  // namespace inferperf::app
