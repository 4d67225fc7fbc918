// One client connection to the server under test: plain TCP, TLS over TCP, a Unix domain socket or
// TLS over one. It is an asynchronous read/write stream, so http_exchange and asio::async_write
// use it as they would a socket; close() always closes the socket underneath.
#pragma once
#include <openssl/ssl.h>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/error.hpp"

namespace inferperf::transport {

// How connections are made, beyond the URL (--ssl-ca-file, --insecure, --unix-socket).
struct TransportOptions {
  std::string ssl_ca_file;  // PEM bundle trusted on top of the system store
  bool insecure = false;    // no certificate or host-name verification
  std::string unix_socket;  // every connection goes to this socket; the URL gives Host and path
  // --local-address: each new TCP connection binds to the next of these source addresses (round
  // robin); empty: the kernel picks the source.
  std::vector<std::string> local_addresses;
};

// The client TLS context for https:// targets: the system CA store (or SSL_CERT_FILE /
// SSL_CERT_DIR) plus options.ssl_ca_file, peer verification unless options.insecure. Thread-safe
// to share once built.
core::Result<std::shared_ptr<boost::asio::ssl::context>> make_client_tls_context(
    const TransportOptions& options);

// Orders resolved endpoints IPv4 first, each family keeping the resolver's order ("localhost"
// reaches a server listening on 127.0.0.1 without a refused ::1 attempt first).
void order_ipv4_first(std::vector<boost::asio::ip::tcp::endpoint>& endpoints);

class Connection {
 public:
  using Tcp = boost::asio::ip::tcp::socket;
  using Unix = boost::asio::local::stream_protocol::socket;
  using TlsTcp = boost::asio::ssl::stream<Tcp>;
  using TlsUnix = boost::asio::ssl::stream<Unix>;
  using executor_type = boost::asio::any_io_executor;

  // A plain TCP connection asks the kernel for receive timestamps (rx_stamp.hpp).
  explicit Connection(Tcp s);
  explicit Connection(Unix s) : s_(std::in_place_type<Unix>, std::move(s)) {}
  // TLS over the socket; `server_name` is sent as SNI (unless an IP address) and checked against
  // the certificate when the context verifies peers.
  Connection(Tcp s, boost::asio::ssl::context& tls, const std::string& server_name);
  Connection(Unix s, boost::asio::ssl::context& tls, const std::string& server_name);

  executor_type get_executor() {
    return std::visit([](auto& s) -> executor_type { return s.get_executor(); }, s_);
  }

  template <typename MutableBuffers, typename Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, const MutableBuffers& b) {
          std::visit([&](auto& s) { s.async_read_some(b, std::move(handler)); }, s_);
        },
        token, buffers);
  }

  template <typename ConstBuffers, typename Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, const ConstBuffers& b) {
          std::visit([&](auto& s) { s.async_write_some(b, std::move(handler)); }, s_);
        },
        token, buffers);
  }

  // Waits until the socket has bytes to read (plain connections only: see plain_fd()).
  template <typename Handler>
  void async_wait_readable(Handler&& handler) {
    if (auto* t = std::get_if<Tcp>(&s_)) {
      t->async_wait(Tcp::wait_read, std::forward<Handler>(handler));
    } else {
      std::get<Unix>(s_).async_wait(Unix::wait_read, std::forward<Handler>(handler));
    }
  }
  // The descriptor of an open plain (TCP or Unix) connection, read directly by plain_read; -1
  // for TLS or a closed socket.
  int plain_fd();
  // Writes as much of `bytes` as a plain connection's socket takes at once (send without
  // waiting, no SIGPIPE), with no trip through the loop; returns how much. `ec` is set on a
  // failure other than a full send buffer, and left as it is otherwise. TLS or closed: 0, no error
  // (async_write does it all).
  std::size_t write_now(std::string_view bytes, boost::system::error_code& ec);
  // Calls f(socket) with the open plain socket (Tcp& or Unix&); false for TLS or a closed one.
  template <typename F>
  bool visit_plain(F&& f) {
    if (auto* t = std::get_if<Tcp>(&s_); t && t->is_open()) {
      f(*t);
      return true;
    }
    if (auto* u = std::get_if<Unix>(&s_); u && u->is_open()) {
      f(*u);
      return true;
    }
    return false;
  }
  // While plain_read's step runs (inside Asio's reactor, holding the socket's lock), close()
  // only marks the connection, and the read's completion closes it (a sink callback that cancels
  // must not re-enter the reactor for the same socket).
  void set_closing_deferred(bool on) { defer_close_ = on; }
  bool close_deferred() const { return close_pending_; }
  // Set when plain_read ended a response with the socket drained and told the reactor to skip the
  // next speculative read; the peek before reuse (idle_usable) clears it. A read that finds it
  // still set reads once itself: an end of stream that came with the last bytes is pending there
  // with no readiness edge to come.
  void set_drained_unchecked(bool on) const { drained_unchecked_ = on; }
  bool drained_unchecked() const { return drained_unchecked_; }
  // Whether reads on this connection carry the kernel's receive stamps.
  bool rx_stamped() const { return rx_stamped_; }
  // The connection's read buffer for TLS reads, kept for its life (allocated on first use, left
  // uninitialised: zero-filling it cost more per request than parsing a streamed event). Plain
  // reads share their thread's buffer (plain_read.cpp).
  static constexpr std::size_t kReadBufferBytes = 16 * 1024;
  char* read_buffer() {
    if (!read_buf_) read_buf_.reset(new char[kReadBufferBytes]);
    return read_buf_.get();
  }

  bool is_tls() const {
    return std::holds_alternative<TlsTcp>(s_) || std::holds_alternative<TlsUnix>(s_);
  }
  // The client TLS handshake (nothing to do on a plain connection); the error is left in `ec`.
  boost::asio::awaitable<void> handshake(boost::system::error_code& ec);
  // The OpenSSL handle of a TLS connection, else nullptr.
  SSL* tls_handle();

  bool is_open() const;
  // An idle pooled connection can carry a new request only while the server has neither closed
  // it (FIN or RST pending) nor sent anything unasked: checked without blocking before reuse.
  bool idle_usable() const;
  // Closes the socket underneath: pending operations complete with operation_aborted.
  void close(boost::system::error_code& ec);

  // Set when the connection goes back to its pool: whether the response it just carried was a
  // stream (text/event-stream) and when it went idle. A server that closes right after streams is
  // recognised from these (ServerBehaviour).
  void mark_idle(bool streamed, std::int64_t now_ns) {
    last_streamed_ = streamed;
    idle_since_ns_ = now_ns;
  }
  // The connection was given back after a stream at most `window_ns` before `now_ns`.
  bool idle_after_stream_within(std::int64_t now_ns, std::int64_t window_ns) const {
    return last_streamed_ && idle_since_ns_ > 0 && now_ns - idle_since_ns_ <= window_ns;
  }

 private:
  bool last_streamed_ = false;
  bool rx_stamped_ = false;
  bool defer_close_ = false;
  bool close_pending_ = false;
  mutable bool drained_unchecked_ = false;  // see set_drained_unchecked
  std::int64_t idle_since_ns_ = 0;
  std::unique_ptr<char[]> read_buf_;
  std::variant<Tcp, TlsTcp, Unix, TlsUnix> s_;
};

}  // namespace inferperf::transport
