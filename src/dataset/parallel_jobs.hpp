// Prompt generation on every core, with the threads' exceptions brought home: an allocation
// failure in a helper thread must reach the caller as std::bad_alloc (a clear "out of memory"
// message), not end the process in std::terminate.
#pragma once
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace inferperf::dataset {

// Runs `work` on `threads` threads (this one included) and, once all have stopped, rethrows the
// first exception any of them threw.
template <typename F>
void run_on_threads(int threads, const F& work) {
  std::mutex mutex;
  std::exception_ptr first;
  auto guarded = [&] {
    try {
      work();
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!first) first = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(guarded);
    guarded();
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace inferperf::dataset
