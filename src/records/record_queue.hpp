// Multi-producer, single-consumer queue of finished records (workers -> collector).
#pragma once
#include <chrono>
#include <condition_variable>
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
  //
  // An empty `out` trades buffers with the queue: the consumer's cleared batch becomes the
  // queue's storage, so once both have grown to a batch a push allocates nothing (a deque
  // allocated a node per record, a record being larger than a deque's 512-byte block, on the
  // worker's thread, and freed it on the consumer's). A buffer grown by a backlog is not kept.
  bool drain(std::vector<RequestRecord>& out, std::chrono::milliseconds wait) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, wait, [&] { return q_.size() >= kWakeBatch || closed_; });
    if (out.empty()) {
      out.swap(q_);
      if (q_.capacity() > kKeptCapacity) {
        q_ = std::vector<RequestRecord>();
        q_.reserve(kWakeBatch);  // here, not by doublings under the producers' pushes
      }
    } else {
      for (auto& r : q_) out.push_back(std::move(r));
      q_.clear();
    }
    return !(closed_ && out.empty());
  }

 private:
  // Records a buffer keeps room for between batches (about 4 MB at ~1 KB a record).
  static constexpr std::size_t kKeptCapacity = 16 * kWakeBatch;

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<RequestRecord> q_;
  bool closed_ = false;
};

}  // namespace inferperf::records
