// File-descriptor limit handling shared by both binaries.
#pragma once
#include <cstdint>

namespace inferperf::core {

struct FdLimit {
  std::uint64_t soft = 0;
  std::uint64_t hard = 0;
};

// Raises RLIMIT_NOFILE's soft limit to the hard limit and returns the resulting limits.
FdLimit raise_fd_limit();

}  // namespace inferperf::core
