#include "core/cpu_time.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace inferperf::core {
namespace {

TEST(CpuTime, UsableCpusFollowsTheAffinityMask) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof(mine), &mine), 0);
  EXPECT_EQ(usable_cpus(), CPU_COUNT(&mine));
  // A thread pinned to one CPU (as under `taskset -c N`) may use exactly one.
  int first = 0;
  while (!CPU_ISSET(first, &mine)) ++first;
  int pinned = 0;
  std::thread t([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof(one), &one) == 0) pinned = usable_cpus();
  });
  t.join();
  EXPECT_EQ(pinned, 1);
}

TEST(CpuTime, ThreadCpuCountsOnlyThatThreadsWork) {
  std::atomic<bool> stop{false};
  std::thread busy([&] {
    while (!stop.load()) {
    }
  });
  std::thread idle([&] {
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto busy_ns = thread_cpu_ns(busy.native_handle());
  const auto idle_ns = thread_cpu_ns(idle.native_handle());
  stop.store(true);
  busy.join();
  idle.join();
  ASSERT_TRUE(busy_ns && idle_ns);
  EXPECT_GT(*busy_ns, 20'000'000);  // spun for 200 ms; a loaded machine gives it a share at least
  EXPECT_LT(*idle_ns, *busy_ns);
  EXPECT_GT(this_thread_cpu_ns(), 0);
  const ProcessCpu p = process_cpu();
  EXPECT_GE(p.user_ns + p.system_ns, *busy_ns);
}

}  // namespace
}  // namespace inferperf::core
