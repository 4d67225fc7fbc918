#include "records/collector.hpp"

#include <cerrno>
#include <cstring>

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
  if (file_) std::fclose(file_);
}

core::Result<bool> Collector::open(const std::filesystem::path& file) {
  file_ = std::fopen(file.c_str(), "w");
  if (!file_) {
    return core::Error{core::ErrorKind::kIo,
                       "cannot create records file: " + std::string(std::strerror(errno)),
                       file.string()};
  }
  return true;
}

void Collector::start() {
  thread_ = std::thread([this] { run(); });
}

void Collector::run() {
  std::vector<RequestRecord> batch;
  std::string line;  // reused: its capacity grows to the longest record once
  auto last_flush = std::chrono::steady_clock::now();
  bool dirty = false;
  for (;;) {
    batch.clear();
    bool more = queue_.drain(batch, std::chrono::milliseconds(200));
    for (auto& r : batch) {
      if (file_) {
        line.clear();
        append_record_line(r, anchor_, line);
        line.push_back('\n');
        std::fwrite(line.data(), 1, line.size(), file_);
        dirty = true;
      }
      if (observer_) observer_(r);
      if (r.error) errors_.fetch_add(1);
      completed_.fetch_add(1);
      records_.push_back(std::move(r));
    }
    auto now = std::chrono::steady_clock::now();
    // Every 0.5 s (plus at most one 200 ms drain wait): after kill -9 the file holds every
    // request that finished more than a second earlier.
    if (file_ && dirty && now - last_flush >= std::chrono::milliseconds(500)) {
      std::fflush(file_);
      dirty = false;
      last_flush = now;
    }
    if (!more) break;
  }
  if (file_) std::fflush(file_);
}

std::vector<RequestRecord> Collector::finish() {
  queue_.close();
  if (thread_.joinable()) thread_.join();
  return std::move(records_);
}

}  // namespace inferperf::records
