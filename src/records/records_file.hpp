// The records file as the collector writes it: whole lines appended through one descriptor and
// every write checked as it goes. The first failure (ENOSPC, EDQUOT, EIO, ...) is kept, the file
// is cut back to its last complete line (so `analyze` reads every record on disk) and nothing more
// is written; the caller reports it and stops the run.
//
// Test hook, for tests only: INFERPERF_TEST_FAIL_WRITES_AFTER_BYTES=N makes every write past the
// file's first N bytes fail with ENOSPC, as a disk that fills up at that point would.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace inferperf::records {

class RecordsFile {
 public:
  RecordsFile() = default;
  ~RecordsFile();
  RecordsFile(const RecordsFile&) = delete;
  RecordsFile& operator=(const RecordsFile&) = delete;

  // Creates (or truncates) the file.
  core::Result<bool> open(const std::filesystem::path& file);
  bool is_open() const { return fd_ >= 0; }
  // Buffers one complete line (with its '\n'); nothing is buffered after a failure.
  void append(std::string_view line);
  // Writes what is buffered; false once any write has failed.
  bool flush();
  // Flushes and closes; false when that (or an earlier write) failed.
  bool close();

  bool failed() const { return !error_.empty(); }
  // "writing <file> failed: No space left on device" (empty while every write succeeded).
  const std::string& error() const { return error_; }
  // Bytes of complete lines on disk, and how many lines that is.
  std::int64_t bytes_written() const { return written_; }
  std::int64_t lines_written() const { return lines_; }

 private:
  // write(2) with the test hook applied; -1 and errno on failure.
  long write_some(const char* data, std::size_t size);
  void fail(int err, std::size_t kept_of_buffer);

  int fd_ = -1;
  std::string path_;
  std::string buffer_;
  std::int64_t written_ = 0, lines_ = 0;
  std::int64_t offset_ = 0;  // bytes handed to write(2), a partial line included
  std::string error_;
  std::optional<std::int64_t> fail_after_;  // the test hook's byte limit
};

}  // namespace inferperf::records
