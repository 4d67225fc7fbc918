// http_exchange against a local socket that answers with a canned response: a body over
// --max-response-bytes (Content-Length, chunked or close-delimited) ends the exchange as one
// ResponseTooLargeError naming the flag, and its connection is never reused; a request larger
// than the socket takes at once reaches the server whole and in order.
#include "transport/http_exchange.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

namespace inferperf::transport {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

class CountingSink final : public ResponseSink {
 public:
  void on_headers(int s, std::string_view, std::string_view, core::MonoNs) override { status = s; }
  void on_body(std::string_view bytes, core::MonoNs, std::uint32_t) override {
    body_bytes += bytes.size();
  }
  int status = 0;
  std::size_t body_bytes = 0;
};

struct Outcome {
  std::optional<ExchangeError> error;
  std::size_t idle_after = 0;  // connections the pool kept for reuse
  CountingSink sink;
};

// One request through a fresh pool to a server that reads the request head and writes `response`
// (then keeps the connection open, so only the client can end the exchange).
Outcome exchange_with(const std::string& response, std::uint64_t max_body_bytes) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  acceptor.listen();
  auto url = parse_base_url("http://127.0.0.1:" + std::to_string(acceptor.local_endpoint().port()));
  EXPECT_TRUE(url);
  ConnectionPool pool(io.get_executor(), *url);
  std::optional<tcp::socket> server_side;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        server_side.emplace(co_await acceptor.async_accept(asio::use_awaitable));
        asio::streambuf head;
        co_await asio::async_read_until(*server_side, head, "\r\n\r\n", asio::use_awaitable);
        boost::system::error_code ec;
        co_await asio::async_write(*server_side, asio::buffer(response),
                                   asio::redirect_error(asio::use_awaitable, ec));
      },
      asio::detached);
  Outcome out;
  bool done = false;
  const core::SteadyClock clock;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        ExchangeRequest req{request};
        req.max_body_bytes = max_body_bytes;
        ExchangeTimings t;
        CancelHandle cancel;
        out.error = co_await http_exchange(pool, req, out.sink, clock, t, cancel);
        out.idle_after = pool.idle_count();
        done = true;
      },
      asio::detached);
  for (int spins = 0; !done && spins < 1000; ++spins) io.run_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(done) << "the exchange did not end";
  return out;
}

std::string with_length(std::size_t n) {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(n) + "\r\n\r\n" + std::string(n, 'x');
}

std::string chunked(std::size_t chunks, std::size_t chunk_bytes) {
  std::string r =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
      "Transfer-Encoding: chunked\r\n\r\n";
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", chunk_bytes);
  for (std::size_t i = 0; i < chunks; ++i) r += size + std::string(chunk_bytes, 'x') + "\r\n";
  return r + "0\r\n\r\n";
}

void expect_too_large(const Outcome& o, const std::string& limit_text) {
  ASSERT_TRUE(o.error.has_value());
  EXPECT_EQ(o.error->type.name(), "ResponseTooLargeError");
  EXPECT_EQ(o.error->message, "response body exceeded --max-response-bytes (" + limit_text + ")");
  EXPECT_FALSE(o.error->code.has_value());
  EXPECT_EQ(o.idle_after, 0u) << "a connection left mid-body must not be reused";
}

TEST(HttpExchangeLimits, ContentLengthOverTheCapFailsAtTheHead) {
  const Outcome o = exchange_with(with_length(8192), 4096);
  expect_too_large(o, "4.0 KiB");
  EXPECT_EQ(o.sink.body_bytes, 0u);  // refused from the announced length, nothing delivered
}

TEST(HttpExchangeLimits, ChunkedStreamOverTheCapFailsMidBody) {
  const Outcome o = exchange_with(chunked(64, 1024), 16 * 1024);
  expect_too_large(o, "16.0 KiB");
  EXPECT_EQ(o.sink.status, 200);
  EXPECT_LE(o.sink.body_bytes, 16u * 1024);  // never more than the cap reaches the sink
}

TEST(HttpExchangeLimits, CloseDelimitedBodyOverTheCapFails) {
  const std::string head =
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n";
  const Outcome o = exchange_with(head + std::string(20000, 'x'), 10000);
  expect_too_large(o, "9.8 KiB");
}

TEST(HttpExchangeLimits, BodiesAtTheCapPassAndKeepTheConnection) {
  const Outcome whole = exchange_with(with_length(4096), 4096);
  EXPECT_FALSE(whole.error.has_value()) << whole.error->message;
  EXPECT_EQ(whole.sink.body_bytes, 4096u);
  EXPECT_EQ(whole.idle_after, 1u);
  const Outcome stream = exchange_with(chunked(16, 1024), 16 * 1024);
  EXPECT_FALSE(stream.error.has_value()) << stream.error->message;
  EXPECT_EQ(stream.sink.body_bytes, 16u * 1024);
  // 0 lifts the cap.
  EXPECT_FALSE(exchange_with(with_length(1 << 20), 0).error.has_value());
}

// The most bytes a TCP socket's send buffer grows to by itself (tcp_wmem's third field; 4 MiB by
// default); 16 MiB where it cannot be read.
std::size_t send_buffer_ceiling() {
  std::ifstream f("/proc/sys/net/ipv4/tcp_wmem");
  std::size_t low = 0, initial = 0, most = 0;
  return f >> low >> initial >> most ? most : 16u << 20;
}

// The request is written straight to the socket as far as it takes it and the rest through
// async_write: a request more than twice the send buffer's ceiling (up to 64 MiB), to a server
// whose receive buffer is fixed at 64 KiB and which reads nothing until the client's coroutine
// yields (both run on this thread), cannot be taken at once, so the direct write stops part-way. It
// arrives whole, every byte in its place.
TEST(HttpExchange, ARequestLargerThanTheSocketTakesArrivesWhole) {
  asio::io_context io;
  tcp::acceptor acceptor(io);
  acceptor.open(tcp::v4());
  // Set before listening, so the accepted socket has it from the handshake on.
  acceptor.set_option(asio::socket_base::receive_buffer_size(64 * 1024));
  acceptor.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  acceptor.listen();
  auto url = parse_base_url("http://127.0.0.1:" + std::to_string(acceptor.local_endpoint().port()));
  ASSERT_TRUE(url);
  ConnectionPool pool(io.get_executor(), *url);
  // At most 64 MiB, whatever the host's ceiling (the request exists twice: sent and received).
  const std::size_t body_bytes =
      std::clamp<std::size_t>(2 * send_buffer_ceiling() + (1u << 20), 16u << 20, 64u << 20);
  std::string request =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body_bytes) + "\r\n\r\n";
  const std::size_t head_bytes = request.size();
  request.resize(head_bytes + body_bytes);
  for (std::size_t i = 0; i < body_bytes; ++i)
    request[head_bytes + i] = static_cast<char>('a' + i % 23);
  std::string received;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        tcp::socket s = co_await acceptor.async_accept(asio::use_awaitable);
        received.resize(request.size());
        co_await asio::async_read(s, asio::buffer(received), asio::use_awaitable);
        const std::string response = with_length(2);
        co_await asio::async_write(s, asio::buffer(response), asio::use_awaitable);
      },
      asio::detached);
  bool done = false;
  std::optional<ExchangeError> error;
  ExchangeTimings t;
  CountingSink sink;
  const core::SteadyClock clock;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        CancelHandle cancel;
        error = co_await http_exchange(pool, ExchangeRequest{request}, sink, clock, t, cancel);
        done = true;
      },
      asio::detached);
  for (int spins = 0; !done && spins < 2000; ++spins) io.run_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(done) << "the exchange did not end";
  EXPECT_FALSE(error.has_value()) << error->message;
  EXPECT_EQ(t.bytes_sent, static_cast<std::int64_t>(request.size()));
  EXPECT_TRUE(received == request) << "the request arrived changed";
  EXPECT_EQ(sink.status, 200);
  EXPECT_EQ(sink.body_bytes, 2u);
}

}  // namespace
}  // namespace inferperf::transport
