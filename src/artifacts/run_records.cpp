#include "artifacts/run_records.hpp"

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "artifacts/run_folder.hpp"
#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"
#include "report/exporters.hpp"

namespace inferperf::artifacts {

namespace fs = std::filesystem;

core::Result<std::int64_t> for_each_record(const fs::path& file,
                                           const std::function<void(records::RequestRecord&)>& fn) {
  std::ifstream in(file);
  if (!in) return core::Error{core::ErrorKind::kIo, "cannot read the records file", file.string()};
  std::string line;
  int line_no = 0;
  std::int64_t n = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    auto r = records::record_from_line(line);
    if (!r) {
      // A run killed mid-write leaves a partial last line; anything else is a damaged file.
      if (in.peek() == std::char_traits<char>::eof()) {
        spdlog::warn("{}:{}: incomplete last record skipped", file.string(), line_no);
        break;
      }
      core::Error e = r.error();
      e.file = file.string();
      e.line = line_no;
      return e;
    }
    ++n;
    fn(*r);
  }
  return n;
}

core::Result<std::int64_t> for_each_record_read_ahead(
    const fs::path& file, const std::function<void(records::RequestRecord&)>& fn) {
  // The reader thread parses batches of records while the caller works on the previous ones; at
  // most kReadAheadBatches batches wait, so memory stays bounded.
  constexpr std::size_t kReadAheadBatch = 256;
  constexpr std::size_t kReadAheadBatches = 8;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::vector<records::RequestRecord>> ready;
  bool done = false;
  bool abandoned = false;  // the caller stopped taking batches (its callback threw)
  std::optional<core::Result<std::int64_t>> result;
  std::exception_ptr reader_failure;
  std::thread reader([&] {
    std::vector<records::RequestRecord> batch;
    auto hand_over = [&] {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return ready.size() < kReadAheadBatches || abandoned; });
      if (abandoned) throw std::runtime_error("records reader abandoned");
      ready.push_back(std::move(batch));
      batch = {};
      changed.notify_all();
    };
    std::optional<core::Result<std::int64_t>> n;
    std::exception_ptr failure;
    try {
      n = for_each_record(file, [&](records::RequestRecord& r) {
        batch.push_back(std::move(r));
        if (batch.size() >= kReadAheadBatch) hand_over();
      });
      if (!batch.empty()) hand_over();
    } catch (...) {
      failure = std::current_exception();
    }
    std::lock_guard lock(mutex);
    result = std::move(n);
    reader_failure = failure;
    done = true;
    changed.notify_all();
  });
  // Whatever happens on this side, the reader is released and joined before the frame goes.
  struct JoinReader {
    std::thread& t;
    std::mutex& m;
    std::condition_variable& cv;
    bool& abandoned;
    ~JoinReader() {
      {
        std::lock_guard lock(m);
        abandoned = true;
      }
      cv.notify_all();
      if (t.joinable()) t.join();
    }
  } join_reader{reader, mutex, changed, abandoned};
  for (;;) {
    std::vector<records::RequestRecord> batch;
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return !ready.empty() || done; });
      if (ready.empty()) break;
      batch = std::move(ready.front());
      ready.pop_front();
      changed.notify_all();
    }
    for (auto& r : batch) fn(r);
  }
  reader.join();
  if (reader_failure) std::rethrow_exception(reader_failure);
  return std::move(*result);
}

core::Result<LoadedRun> read_run(const fs::path& dir) {
  auto manifest = read_manifest(dir);
  if (!manifest) return manifest.error();
  LoadedRun run{std::move(*manifest), {}};
  auto n = for_each_record(dir / kRecordsFileName, [&run](records::RequestRecord& r) {
    run.records.push_back(std::move(r));
  });
  if (!n) return n.error();
  return run;
}

core::Result<bool> save_records(const fs::path& file,
                                const std::vector<records::RequestRecord>& recs,
                                const core::WallAnchor& anchor) {
  return report::write_atomically(file, [&](std::ostream& out) {
    std::string line;
    for (const auto& r : recs) {
      line.clear();
      records::append_record_line(r, anchor, line);
      line += '\n';
      out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
  });
}

}  // namespace inferperf::artifacts
