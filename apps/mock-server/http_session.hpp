// The HTTP/1.1 connection loop: TLS handshake, read and parse a request, have it answered, then
// keep the connection or close it (at once or after a delay). Stream is a plain TCP or Unix socket
// or a TLS stream over one; everything past the socket is in answer_request.
#pragma once
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/http/read.hpp>

#include <string>
#include <type_traits>
#include <utility>

#include "connection.hpp"
#include "request_dispatch.hpp"

namespace inferperf::mock::detail {

template <typename Stream>
class HttpSession final : public Connection {
 public:
  HttpSession(ServerState& server, Stream stream)
      : Connection(boost::beast::get_lowest_layer(stream).get_executor()),
        server_(server),
        stream_(std::move(stream)) {}

  boost::asio::awaitable<void> serve() {
    namespace asio = boost::asio;
    namespace http = boost::beast::http;
    server_.counters.connections.fetch_add(1);
    server_.counters.connections_total.fetch_add(1);
    if constexpr (!std::is_same_v<Stream, asio::ip::tcp::socket> &&
                  !std::is_same_v<Stream, asio::local::stream_protocol::socket>) {
      boost::system::error_code hec;
      co_await stream_.async_handshake(asio::ssl::stream_base::server,
                                       asio::redirect_error(asio::use_awaitable, hec));
      if (hec) {
        server_.counters.connections.fetch_sub(1);
        co_return;
      }
    }
    boost::beast::flat_buffer buffer;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(256 * 1024 * 1024);
      boost::system::error_code ec;
      co_await http::async_read(stream_, buffer, parser,
                                asio::redirect_error(asio::use_awaitable, ec));
      if (ec) break;
      auto req = parser.release();
      Exchange x{server_, *this, req, req.keep_alive()};
      const bool keep = co_await answer_request(x);
      if (!keep || !socket().is_open()) break;
      // The response said keep-alive and the server closes anyway: at once, or after a delay in
      // which a request the client already wrote is never read (llama.cpp's server after streams).
      if (const auto delay_ms = close_delay_ms(server_.options, x)) {
        if (*delay_ms > 0) co_await sleep_until(Clock::now() + ms_duration(*delay_ms));
        break;
      }
    }
    boost::system::error_code ignored;
    socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    socket().close(ignored);
    server_.counters.connections.fetch_sub(1);
  }

  boost::asio::awaitable<void> send(std::string data) override {
    namespace asio = boost::asio;
    boost::system::error_code ec;
    co_await asio::async_write(stream_, asio::buffer(data),
                               asio::redirect_error(asio::use_awaitable, ec));
    if (ec) write_failed_ = true;
  }

  void close(bool reset) override {
    boost::system::error_code ec;
    if (reset) socket().set_option(boost::asio::socket_base::linger(true, 0), ec);
    socket().close(ec);
  }

 private:
  auto& socket() { return boost::beast::get_lowest_layer(stream_); }

  ServerState& server_;
  Stream stream_;
};

}  // namespace inferperf::mock::detail
