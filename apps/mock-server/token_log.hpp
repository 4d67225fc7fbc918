// --token-log: one JSONL line per streamed generation with the wall-clock time of every token
// event write, the truth the accuracy benchmark (bench/accuracy_compare.cpp) compares the client's
// timestamps against.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace inferperf::mock {

// {"x_request_id":ID|null,"received_ns":N,"writes_ns":[...]} (no trailing newline).
std::string token_log_line(std::optional<std::string_view> x_request_id, std::int64_t received_ns,
                           const std::vector<std::int64_t>& writes_ns);

// Lines are appended to a per-thread buffer (its own mutex, which only the flusher ever contends
// for) so serving threads never wait on each other or on the disk; a background thread writes the
// buffers out every `period_ms` and the destructor writes what is left, so a server stopped by
// SIGTERM/SIGINT leaves a complete log of every request it finished.
class TokenLog {
 public:
  // Opens `path` for appending; throws std::runtime_error when it cannot.
  explicit TokenLog(const std::string& path, int period_ms = 500);
  ~TokenLog();
  TokenLog(const TokenLog&) = delete;
  TokenLog& operator=(const TokenLog&) = delete;

  // Queues one line (a newline is added).
  void append(std::string_view line);
  // Writes every queued line now.
  void flush();

 private:
  struct Shard {
    std::mutex mu;
    std::string buf;
  };
  Shard& shard();

  std::FILE* file_ = nullptr;
  std::mutex shards_mu_;  // guards shards_ (registration and the flusher's walk)
  std::vector<std::unique_ptr<Shard>> shards_;
  std::mutex write_mu_;  // one writer at a time: the flusher or an explicit flush()
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread flusher_;
  const std::uint64_t id_;  // tells this log's shards from another (tests make several logs)
};

}  // namespace inferperf::mock
