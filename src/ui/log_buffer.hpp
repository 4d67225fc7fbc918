// LogBuffer: the last lines logged, for the dashboard's log pane. Any thread may log; the UI
// thread copies the tail. make_log_sink() wraps it as an spdlog sink.
#pragma once
#include <spdlog/sinks/sink.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace inferperf::ui {

class LogBuffer {
 public:
  explicit LogBuffer(std::size_t capacity = 1000) : capacity_(capacity) {}
  void push(std::string line);
  // The last `n` lines, oldest first.
  std::vector<std::string> tail(std::size_t n) const;

 private:
  mutable std::mutex mu_;
  std::deque<std::string> lines_;
  std::size_t capacity_;
};

// An spdlog sink that formats each message (with the formatter the logger gives it) into
// `buffer`, one entry per line of the message.
std::shared_ptr<spdlog::sinks::sink> make_log_sink(std::shared_ptr<LogBuffer> buffer);

}  // namespace inferperf::ui
