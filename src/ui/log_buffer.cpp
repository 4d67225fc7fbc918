#include "ui/log_buffer.hpp"

#include <spdlog/sinks/base_sink.h>

namespace inferperf::ui {

void LogBuffer::push(std::string line) {
  std::lock_guard lock(mu_);
  lines_.push_back(std::move(line));
  while (lines_.size() > capacity_) lines_.pop_front();
}

std::vector<std::string> LogBuffer::tail(std::size_t n) const {
  std::lock_guard lock(mu_);
  const std::size_t k = std::min(n, lines_.size());
  return {lines_.end() - static_cast<std::ptrdiff_t>(k), lines_.end()};
}

namespace {

class LogBufferSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit LogBufferSink(std::shared_ptr<LogBuffer> buffer) : buffer_(std::move(buffer)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    std::string text(formatted.data(), formatted.size());
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) buffer_->push(std::move(line));
      start = end + 1;
    }
  }
  void flush_() override {}

 private:
  std::shared_ptr<LogBuffer> buffer_;
};

}  // namespace

std::shared_ptr<spdlog::sinks::sink> make_log_sink(std::shared_ptr<LogBuffer> buffer) {
  return std::make_shared<LogBufferSink>(std::move(buffer));
}

}  // namespace inferperf::ui
