// Collector thread: drains finished records, appends them to inferperf_records.jsonl as they
// arrive (flushed at least once a second) and keeps them for the metrics pass.
#pragma once
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <thread>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "records/record_queue.hpp"

namespace inferperf::records {

class Collector {
 public:
  Collector(RecordQueue& queue, core::WallAnchor anchor);
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

  core::Result<bool> open(const std::filesystem::path& file);
  // Called on the collector thread with every record as it arrives (the live view's counters);
  // set before start().
  void set_observer(std::function<void(const RequestRecord&)> observer) {
    observer_ = std::move(observer);
  }
  void start();
  // Waits until the queue is closed and drained; returns every record received.
  std::vector<RequestRecord> finish();

  std::int64_t completed() const { return completed_.load(); }
  std::int64_t errors() const { return errors_.load(); }

 private:
  void run();

  RecordQueue& queue_;
  core::WallAnchor anchor_;
  std::FILE* file_ = nullptr;
  std::thread thread_;
  std::vector<RequestRecord> records_;
  std::function<void(const RequestRecord&)> observer_;
  std::atomic<std::int64_t> completed_{0};
  std::atomic<std::int64_t> errors_{0};
};

}  // namespace inferperf::records
