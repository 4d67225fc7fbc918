#include "records/collector.hpp"

#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"

namespace inferperf::records {

Collector::Collector(RecordQueue& queue, core::WallAnchor anchor)
    : queue_(queue), anchor_(anchor) {}

Collector::~Collector() {
  if (thread_.joinable()) {
    queue_.close();
    thread_.join();
  }
}

core::Result<bool> Collector::open(const std::filesystem::path& file) {
  return file_.open(file);
}

void Collector::start() {
  thread_ = std::thread([this] { run(); });
}

void Collector::write_out(bool last) {
  if (!file_.is_open() || write_failed_.load()) return;
  if (last ? file_.close() : file_.flush()) return;
  write_failed_.store(true);
  if (on_write_failure_) on_write_failure_(file_.error(), file_.lines_written());
}

void Collector::run() {
  std::vector<RequestRecord> batch;
  std::string line;  // reused: its capacity grows to the longest record once
  std::int64_t received = 0;
  for (;;) {
    batch.clear();
    bool more = queue_.drain(batch, std::chrono::milliseconds(200));
    const std::int64_t first = received;
    for (auto& r : batch) {
      if (file_.is_open() && !write_failed_.load()) {
        line.clear();
        append_record_line(r, anchor_, line);
        line.push_back('\n');
        file_.append(line);
      }
      if (observer_) observer_(r);
      if (r.error) errors_.fetch_add(1);
      completed_.fetch_add(1);
      ++received;
      if (keep_records_) records_.push_back(std::move(r));
    }
    // Every batch is written at once (one write call): a failing disk is noticed within 200 ms,
    // and after kill -9 the file holds every request that finished before the last batch.
    const bool had_file = file_.is_open();
    write_out(!more);
    if (!keep_records_ && (!had_file || write_failed_.load())) {
      // Not on disk: kept, so the report still has every record.
      const std::int64_t on_disk = file_.lines_written();
      for (std::size_t i = 0; i < batch.size(); ++i) {
        if (first + static_cast<std::int64_t>(i) >= on_disk)
          records_.push_back(std::move(batch[i]));
      }
    }
    if (!more) break;
  }
}

std::vector<RequestRecord> Collector::finish() {
  queue_.close();
  if (thread_.joinable()) thread_.join();
  return std::move(records_);
}

}  // namespace inferperf::records
