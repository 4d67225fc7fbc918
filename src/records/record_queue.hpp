// Multi-producer, single-consumer queue of finished records (workers -> collector).
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

#include "records/request_record.hpp"

namespace inferperf::records {

class RecordQueue {
 public:
  // The consumer is woken only for a full batch (or close): at thousands of records a second a
  // wake-up per record would cost the workers' core a futex call and a context switch each.
  static constexpr std::size_t kWakeBatch = 256;

  void push(RequestRecord r) {
    bool wake;
    {
      std::lock_guard lock(mu_);
      q_.push_back(std::move(r));
      wake = q_.size() == kWakeBatch;
    }
    if (wake) cv_.notify_one();
  }
  void close() {
    {
      std::lock_guard lock(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }
  // Moves everything queued into `out` after waiting up to `wait` for a full batch.
  // Returns false once the queue is closed and empty.
  bool drain(std::vector<RequestRecord>& out, std::chrono::milliseconds wait) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, wait, [&] { return q_.size() >= kWakeBatch || closed_; });
    while (!q_.empty()) {
      out.push_back(std::move(q_.front()));
      q_.pop_front();
    }
    return !(closed_ && out.empty());
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<RequestRecord> q_;
  bool closed_ = false;
};

}  // namespace inferperf::records
