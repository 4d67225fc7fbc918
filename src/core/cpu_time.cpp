#include "core/cpu_time.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <thread>

namespace inferperf::core {

namespace {
std::int64_t to_ns(const timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}
std::int64_t to_ns(const timeval& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 +
         static_cast<std::int64_t>(t.tv_usec) * 1000;
}
}  // namespace

std::optional<std::int64_t> thread_cpu_ns(pthread_t thread) {
  clockid_t id{};
  if (pthread_getcpuclockid(thread, &id) != 0) return std::nullopt;
  timespec t{};
  if (clock_gettime(id, &t) != 0) return std::nullopt;
  return to_ns(t);
}

std::int64_t this_thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return to_ns(t);
}

ProcessCpu process_cpu() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return {to_ns(u.ru_utime), to_ns(u.ru_stime)};
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace inferperf::core
