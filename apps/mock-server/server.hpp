// The mock server: an OpenAI-compatible HTTP/1.1 server with AIPerf's mock timing model
// (token i released at start + TTFT + i*ITL, absolute deadlines) and fault injection.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>

#include "core/clock.hpp"
#include "fake_dcgm.hpp"
#include "mock_options.hpp"
#include "prefix_cache.hpp"
#include "routes.hpp"
#include "served_stats.hpp"
#include "token_log.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::mock {

struct MockCounters {
  std::atomic<std::int64_t> requests{0};  // inference requests received
  std::atomic<std::int64_t> in_flight{0};
  std::atomic<std::int64_t> max_in_flight{0};
  std::atomic<std::int64_t> errors_injected{0};
  std::atomic<std::int64_t> output_tokens{0};
  std::atomic<std::int64_t> connections{0};
  std::atomic<std::int64_t> connections_total{0};
};

// Whether `spec` is an X-Mock-Fault value the server acts on ("kind" or "kind=N").
bool valid_fault(std::string_view spec);

class MockServer {
 public:
  // `tokenizer` splits prompts into tokens; null selects the ~4-character chunker.
  explicit MockServer(MockOptions options,
                      std::shared_ptr<const tokenizer::Tokenizer> tokenizer = nullptr);
  // Binds and listens; returns the bound port (useful with --port 0), 0 on a --unix-socket.
  // Throws on failure.
  std::uint16_t bind();
  // Serves until stop() or a signal; blocks.
  void run();
  void stop();
  const MockCounters& counters() const { return counters_; }
  ServedStats& served() { return served_; }

 private:
  template <typename Stream>
  friend class Session;
  bool inject_error();
  // --fault-rate: the fault kind drawn for this request, or "" for none.
  std::string draw_fault();
  // Starts a session on an accepted connection (TLS when --tls-cert is given).
  template <typename Socket>
  void start_session(Socket s);

  MockOptions options_;
  // Before io_: coroutine frames destroyed with io_ still report to them.
  MockClock::time_point start_ = MockClock::now();
  double start_unix_s_ = 0;
  ServedStats served_;
  ServedStats unmeasured_;  // what inferperf's preflight requests would add (never shown)
  FakeDcgm dcgm_;
  // --token-log: wall-clock stamps use the client's conversion (one anchor, steady -> wall) so the
  // two files compare. Before io_: sessions destroyed with io_ still append their lines.
  core::WallAnchor anchor_ = core::WallAnchor::capture();
  std::unique_ptr<TokenLog> token_log_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::local::stream_protocol::acceptor unix_acceptor_;  // with --unix-socket
  MockCounters counters_;
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer_;
  PrefixCache prefix_cache_;
  std::unique_ptr<boost::asio::ssl::context> tls_;  // set when --tls-cert/--tls-key are given
  std::mutex rng_mu_;
  std::mt19937_64 rng_;
  VideoJobs videos_;  // /v1/videos jobs
};

}  // namespace inferperf::mock
