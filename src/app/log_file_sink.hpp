// logs/inferperf.log: every line written to the file as it is logged (no buffer to lose), with a
// little disk space set aside beyond its end, so that the lines saying the disk is full still
// reach the log of a run that filled it.
#pragma once
#include <spdlog/sinks/base_sink.h>

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

namespace inferperf::app {

class LogFileSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  // Space kept allocated past the end of the file (fallocate KEEP_SIZE, where the file system
  // has it), topped up whenever less than kReserveLow remains.
  static constexpr std::int64_t kReserve = 64 * 1024;
  static constexpr std::int64_t kReserveLow = 16 * 1024;

  // Creates (or truncates) the file; throws spdlog::spdlog_ex when it cannot.
  explicit LogFileSink(const std::filesystem::path& file);
  // Gives the unused reserve back (the file keeps its size).
  ~LogFileSink() override;
  LogFileSink(const LogFileSink&) = delete;
  LogFileSink& operator=(const LogFileSink&) = delete;

  // Whether some line could not be written (it is lost; later lines are still tried).
  bool failed() const { return failed_; }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override {}  // nothing is buffered

 private:
  void top_up_reserve();

  int fd_ = -1;
  std::int64_t size_ = 0;          // bytes written
  std::int64_t reserved_end_ = 0;  // allocated up to here
  bool failed_ = false;
};

}  // namespace inferperf::app
