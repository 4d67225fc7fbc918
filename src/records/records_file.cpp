#include "records/records_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/env_int.hpp"

namespace inferperf::records {

namespace {

std::optional<std::int64_t> test_write_limit() {
  const core::EnvInt n = core::env_int("INFERPERF_TEST_FAIL_WRITES_AFTER_BYTES", 0, INT64_MAX);
  if (!n.valid()) return std::nullopt;
  return n.value;
}

// memchr from newline to newline: a record line is about a kilobyte, and a byte-by-byte count was
// a sixth of the records writer's instructions.
std::int64_t count_lines(std::string_view text) {
  std::int64_t lines = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) break;
    ++lines;
    p = static_cast<const char*>(nl) + 1;
  }
  return lines;
}

}  // namespace

RecordsFile::~RecordsFile() {
  if (fd_ >= 0) ::close(fd_);
}

core::Result<bool> RecordsFile::open(const std::filesystem::path& file) {
  fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    return core::Error{core::ErrorKind::kIo,
                       "cannot create records file: " + std::string(std::strerror(errno)),
                       file.string()};
  }
  path_ = file.string();
  fail_after_ = test_write_limit();
  return true;
}

void RecordsFile::append(std::string_view line) {
  if (fd_ < 0 || failed()) return;
  buffer_.append(line);
}

long RecordsFile::write_some(const char* data, std::size_t size) {
  if (fail_after_) {
    const std::int64_t room = *fail_after_ - offset_;
    if (room <= 0) {
      errno = ENOSPC;
      return -1;
    }
    size = std::min(size, static_cast<std::size_t>(room));
  }
  const ssize_t n = ::write(fd_, data, size);
  if (n > 0) offset_ += n;
  return static_cast<long>(n);
}

bool RecordsFile::flush() {
  if (failed()) return false;
  if (fd_ < 0 || buffer_.empty()) return true;
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const long n = write_some(buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fail(n < 0 ? errno : ENOSPC, done);  // a write of nothing: the device took no more
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  lines_ += count_lines(buffer_);
  written_ += static_cast<std::int64_t>(buffer_.size());
  buffer_.clear();
  return true;
}

void RecordsFile::fail(int err, std::size_t kept_of_buffer) {
  // The lines that reached the disk whole stay; a partial last one is cut off, so the file ends on
  // a complete record.
  const std::string_view head(buffer_.data(), kept_of_buffer);
  const std::size_t nl = head.rfind('\n');
  const std::size_t whole = nl == std::string_view::npos ? 0 : nl + 1;
  lines_ += count_lines(head.substr(0, whole));
  written_ += static_cast<std::int64_t>(whole);
  if (whole != kept_of_buffer) {
    // Best effort: a file that cannot be cut still has its complete lines first.
    [[maybe_unused]] const int r = ::ftruncate(fd_, written_);
  }
  std::string().swap(buffer_);
  error_ = "writing " + path_ + " failed: " + std::strerror(err);
}

bool RecordsFile::close() {
  if (fd_ < 0) return !failed();
  const bool ok = flush();
  // close(2) reports late write-back errors on some file systems (NFS): checked too.
  if (::close(fd_) != 0 && ok) error_ = "writing " + path_ + " failed: " + std::strerror(errno);
  fd_ = -1;
  return !failed();
}

}  // namespace inferperf::records
