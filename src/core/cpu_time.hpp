// CPU time of threads and of the process, for the client's self-check: a benchmark client that
// runs out of CPU delays its own timestamps, so every run measures how busy its threads were.
#pragma once
#include <pthread.h>

#include <cstdint>
#include <optional>

namespace inferperf::core {

// CPU time (user + system) consumed so far by a running thread; nullopt once it has exited or
// when the platform cannot tell.
std::optional<std::int64_t> thread_cpu_ns(pthread_t thread);
// The calling thread's CPU time.
std::int64_t this_thread_cpu_ns();

struct ProcessCpu {
  std::int64_t user_ns = 0;
  std::int64_t system_ns = 0;
};
ProcessCpu process_cpu();

// CPUs this process may run on (its affinity mask: taskset, a container's cpuset), at least 1;
// std::thread::hardware_concurrency() counts the machine's instead.
int usable_cpus();

}  // namespace inferperf::core
