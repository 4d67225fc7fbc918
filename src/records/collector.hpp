// Collector thread: drains finished records and appends them to inferperf_records.jsonl as they
// arrive (written after every batch: at most 256 records or 200 ms). By default it also keeps them
// for the metrics pass; with set_keep_records(false) it keeps only what the file does not hold,
// so memory stays flat and the analysis reads the file back. The first failed write is reported
// at once through on_write_failure; the records that follow are kept in memory, but no longer
// written.
#pragma once
#include <atomic>
#include <filesystem>
#include <functional>
#include <thread>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "records/record_queue.hpp"
#include "records/records_file.hpp"

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
  // Called once, on the collector thread, when a write to the records file fails: the error
  // ("writing <file> failed: No space left on device") and the records kept on disk. Set before
  // start().
  void set_on_write_failure(std::function<void(const std::string&, std::int64_t)> f) {
    on_write_failure_ = std::move(f);
  }
  // false: drop each record once it is on disk (set before start()).
  void set_keep_records(bool keep) { keep_records_ = keep; }
  void start();
  // Waits until the queue is closed and drained; returns every record received (with
  // set_keep_records(false): those the records file does not hold, in order, after the
  // records_written() records on disk).
  std::vector<RequestRecord> finish();

  std::int64_t completed() const { return completed_.load(); }
  std::int64_t errors() const { return errors_.load(); }
  bool write_failed() const { return write_failed_.load(); }
  // After finish(): the failed write's message, and the records the file holds.
  const std::string& write_error() const { return file_.error(); }
  std::int64_t records_written() const { return file_.lines_written(); }

 private:
  void run();
  void write_out(bool last);

  RecordQueue& queue_;
  core::WallAnchor anchor_;
  RecordsFile file_;
  std::thread thread_;
  std::vector<RequestRecord> records_;
  std::function<void(const RequestRecord&)> observer_;
  std::function<void(const std::string&, std::int64_t)> on_write_failure_;
  bool keep_records_ = true;
  std::atomic<bool> write_failed_{false};
  std::atomic<std::int64_t> completed_{0};
  std::atomic<std::int64_t> errors_{0};
};

}  // namespace inferperf::records
