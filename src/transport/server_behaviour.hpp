// What the client learns about one server while a run goes, shared by every worker's connection
// pool for that server (the pools live on different threads, hence the atomics).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace inferperf::transport {

class ServerBehaviour {
 public:
  // Called once, on whichever worker thread learns it first, with a sentence for the log.
  std::function<void(const std::string&)> on_learned;

  // A request on a reused connection failed before any response byte and was sent again.
  void connection_retried() { retries_.fetch_add(1, std::memory_order_relaxed); }
  std::int64_t connection_retries() const { return retries_.load(std::memory_order_relaxed); }

  // The server closed a connection within kCloseAfterStreamWindowNs of a streamed response that
  // said keep-alive (llama.cpp's server does after every stream): from then on no pool reuses a
  // connection after a streamed response.
  void saw_close_after_stream();
  bool closes_after_stream() const { return closes_after_stream_.load(std::memory_order_relaxed); }

  // A close this soon after the stream is the server's habit, not its idle timeout (seconds).
  static constexpr std::int64_t kCloseAfterStreamWindowNs = 1'000'000'000;

 private:
  std::atomic<std::int64_t> retries_{0};
  std::atomic<bool> closes_after_stream_{false};
};

inline void ServerBehaviour::saw_close_after_stream() {
  if (closes_after_stream_.exchange(true, std::memory_order_relaxed)) return;
  if (on_learned) {
    on_learned(
        "the server closes the connection right after each streamed response although it said "
        "keep-alive; connections are no longer reused after streams (a request that meets such a "
        "closed connection is sent again on a new one and counted as a connection retry)");
  }
}

}  // namespace inferperf::transport
