#include "token_log.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <stdexcept>

#include "content.hpp"

namespace inferperf::mock {

std::string token_log_line(std::optional<std::string_view> x_request_id, std::int64_t received_ns,
                           const std::vector<std::int64_t>& writes_ns) {
  std::string line = R"({"x_request_id":)";
  if (x_request_id) {
    line += '"';
    line += json_escape(*x_request_id);
    line += '"';
  } else {
    line += "null";
  }
  line += fmt::format(R"(,"received_ns":{},"writes_ns":[{}]}})", received_ns,
                      fmt::join(writes_ns, ","));
  return line;
}

namespace {
std::atomic<std::uint64_t> next_log_id{1};
}  // namespace

TokenLog::TokenLog(const std::string& path, int period_ms) : id_(next_log_id.fetch_add(1)) {
  file_ = std::fopen(path.c_str(), "a");
  if (!file_) throw std::runtime_error("cannot open --token-log " + path);
  flusher_ = std::thread([this, period_ms] {
    std::unique_lock lock(stop_mu_);
    while (!stopping_) {
      stop_cv_.wait_for(lock, std::chrono::milliseconds(period_ms), [this] { return stopping_; });
      lock.unlock();
      flush();
      lock.lock();
    }
  });
}

TokenLog::~TokenLog() {
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  flusher_.join();
  flush();  // lines appended after the flusher's last pass
  std::fclose(file_);
}

TokenLog::Shard& TokenLog::shard() {
  // One shard per (thread, log); the cache holds the last log this thread used, which is the only
  // one in the server (tests that create several logs fall back to the registry lookup).
  thread_local std::uint64_t cached_id = 0;
  thread_local Shard* cached = nullptr;
  if (cached_id == id_ && cached) return *cached;
  std::lock_guard lock(shards_mu_);
  shards_.push_back(std::make_unique<Shard>());
  cached_id = id_;
  cached = shards_.back().get();
  return *cached;
}

void TokenLog::append(std::string_view line) {
  Shard& s = shard();
  std::lock_guard lock(s.mu);
  s.buf.append(line);
  s.buf.push_back('\n');
}

void TokenLog::flush() {
  std::lock_guard write_lock(write_mu_);
  std::string out;
  {
    std::lock_guard lock(shards_mu_);
    for (auto& s : shards_) {
      std::lock_guard slock(s->mu);
      out.append(s->buf);
      s->buf.clear();
    }
  }
  if (out.empty()) return;
  std::fwrite(out.data(), 1, out.size(), file_);
  std::fflush(file_);
}

}  // namespace inferperf::mock
