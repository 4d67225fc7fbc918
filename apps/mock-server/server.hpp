// The mock server: an OpenAI-compatible HTTP/1.1 server with AIPerf's mock timing model
// (token i released at start + TTFT + i*ITL, absolute deadlines) and fault injection.
// This file owns the listeners, the threads and TLS; a connection is served by HttpSession
// (http_session.hpp) and answered by answer_request (request_dispatch.hpp).
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/context.hpp>

#include <cstdint>
#include <memory>
#include <string_view>

#include "server_state.hpp"

namespace inferperf::mock {

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
  const MockCounters& counters() const { return state_.counters; }
  ServedStats& served() { return state_.served; }

 private:
  // Starts a session on an accepted connection (TLS when --tls-cert is given).
  template <typename Socket>
  void start_session(Socket s);

  // Before io_: coroutine frames destroyed with io_ still report to it (statistics, token log).
  ServerState state_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::local::stream_protocol::acceptor unix_acceptor_;  // with --unix-socket
  std::unique_ptr<boost::asio::ssl::context> tls_;  // set when --tls-cert/--tls-key are given
};

}  // namespace inferperf::mock
