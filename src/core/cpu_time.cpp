#include "core/cpu_time.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
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

int this_thread_tid() {
  return static_cast<int>(::syscall(SYS_gettid));
}

std::optional<ThreadSched> thread_sched(int tid) {
  if (tid <= 0) return std::nullopt;
  const std::string dir = "/proc/self/task/" + std::to_string(tid);
  ThreadSched s;
  // schedstat: time on CPU, time waiting on a run queue, timeslices (ns, ns, count).
  std::ifstream stat(dir + "/schedstat");
  std::int64_t on_cpu = 0;
  if (!(stat >> on_cpu >> s.run_delay_ns)) return std::nullopt;
  std::ifstream status(dir + "/status");
  for (std::string line; std::getline(status, line);) {
    constexpr std::string_view kKey = "nonvoluntary_ctxt_switches:";
    if (line.rfind(kKey, 0) == 0) {
      std::istringstream(line.substr(kKey.size())) >> s.involuntary_switches;
      break;
    }
  }
  return s;
}

std::optional<std::int64_t> host_steal_ns() {
  // "cpu  user nice system idle iowait irq softirq steal ..." in USER_HZ ticks.
  std::ifstream stat("/proc/stat");
  std::string cpu;
  std::int64_t v[8] = {};
  if (!(stat >> cpu) || cpu != "cpu") return std::nullopt;
  for (auto& x : v) {
    if (!(stat >> x)) return std::nullopt;
  }
  const long hz = ::sysconf(_SC_CLK_TCK);
  if (hz <= 0) return std::nullopt;
  return v[7] * (1'000'000'000 / hz);
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
