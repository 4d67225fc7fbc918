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

// What the scheduler did to one thread so far (Linux /proc/self/task/TID): time it waited on a
// run queue while runnable, and how often it was preempted. A thread that waits without being busy
// itself shares its CPUs with another process: the host is contended, the client is not saturated.
struct ThreadSched {
  std::int64_t run_delay_ns = 0;
  std::int64_t involuntary_switches = 0;
};
// The calling thread's kernel id (for thread_sched from another thread).
int this_thread_tid();
// nullopt when the kernel does not say (no schedstats, the thread gone).
std::optional<ThreadSched> thread_sched(int tid);
// CPU time stolen from this (virtual) machine by its hypervisor so far, over all CPUs
// (/proc/stat); nullopt when unknown.
std::optional<std::int64_t> host_steal_ns();

struct ProcessCpu {
  std::int64_t user_ns = 0;
  std::int64_t system_ns = 0;
};
ProcessCpu process_cpu();

// CPUs this process may run on (its affinity mask: taskset, a container's cpuset), at least 1;
// std::thread::hardware_concurrency() counts the machine's instead.
int usable_cpus();

}  // namespace inferperf::core
