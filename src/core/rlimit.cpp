#include "core/rlimit.hpp"

#include <sys/resource.h>

namespace inferperf::core {

FdLimit raise_fd_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return {};
  if (rl.rlim_cur < rl.rlim_max) {
    rlimit want = rl;
    want.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &want) == 0) rl = want;
  }
  return FdLimit{static_cast<std::uint64_t>(rl.rlim_cur), static_cast<std::uint64_t>(rl.rlim_max)};
}

}  // namespace inferperf::core
