#include "app/log_file_sink.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace inferperf::app {

LogFileSink::LogFileSink(const std::filesystem::path& file) {
  fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    spdlog::throw_spdlog_ex("cannot create log file " + file.string() + ": " +
                            std::strerror(errno));
  }
  top_up_reserve();
}

LogFileSink::~LogFileSink() {
  if (fd_ < 0) return;
  // Truncating to its own size frees the blocks allocated past the end.
  [[maybe_unused]] const int r = ::ftruncate(fd_, size_);
  ::close(fd_);
}

void LogFileSink::top_up_reserve() {
  if (reserved_end_ - size_ >= kReserveLow) return;
  // Best effort: without fallocate (or room for it) the log is written as any file is.
  if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, size_, kReserve) == 0) reserved_end_ = size_ + kReserve;
}

void LogFileSink::sink_it_(const spdlog::details::log_msg& msg) {
  spdlog::memory_buf_t line;
  formatter_->format(msg, line);
  const char* p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // Never thrown: a log line must not end the run; the console has the same line.
      failed_ = true;
      return;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
    size_ += n;
  }
  top_up_reserve();
}

}  // namespace inferperf::app
