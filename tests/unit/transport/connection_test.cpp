// Connection set-up pieces: endpoint order, the client TLS context, and the check that decides
// whether an idle pooled connection may carry another request.
#include "transport/connection.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace {

using boost::asio::ip::make_address;
using boost::asio::ip::tcp;
using inferperf::transport::make_client_tls_context;
using inferperf::transport::order_ipv4_first;
using inferperf::transport::TransportOptions;

tcp::endpoint ep(const char* address) {
  return {make_address(address), 8000};
}

TEST(OrderIpv4First, MovesIpv4AheadKeepingEachFamilysOrder) {
  std::vector<tcp::endpoint> v = {ep("::1"), ep("127.0.0.1"), ep("fe80::1"), ep("10.0.0.1")};
  order_ipv4_first(v);
  const std::vector<tcp::endpoint> want = {ep("127.0.0.1"), ep("10.0.0.1"), ep("::1"),
                                           ep("fe80::1")};
  EXPECT_EQ(v, want);
}

TEST(OrderIpv4First, SingleFamilyUnchanged) {
  std::vector<tcp::endpoint> v6 = {ep("::1"), ep("fe80::1")};
  order_ipv4_first(v6);
  EXPECT_EQ(v6, (std::vector<tcp::endpoint>{ep("::1"), ep("fe80::1")}));
  std::vector<tcp::endpoint> none;
  order_ipv4_first(none);
  EXPECT_TRUE(none.empty());
}

TEST(ClientTlsContext, VerifiesByDefaultAndNotWhenInsecure) {
  auto strict = make_client_tls_context(TransportOptions{});
  ASSERT_TRUE(strict.ok()) << strict.error().message;
  EXPECT_EQ(SSL_CTX_get_verify_mode((*strict)->native_handle()), SSL_VERIFY_PEER);
  TransportOptions insecure;
  insecure.insecure = true;
  auto loose = make_client_tls_context(insecure);
  ASSERT_TRUE(loose.ok()) << loose.error().message;
  EXPECT_EQ(SSL_CTX_get_verify_mode((*loose)->native_handle()), SSL_VERIFY_NONE);
}

TEST(ClientTlsContext, UnreadableCaFileIsAConfigError) {
  TransportOptions o;
  o.ssl_ca_file = "/nonexistent/inferperf-ca.pem";
  auto r = make_client_tls_context(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, inferperf::core::ErrorKind::kConfig);
  EXPECT_NE(r.error().message.find("--ssl-ca-file"), std::string::npos) << r.error().message;
}

// A connected loopback pair: the client side wrapped as a pooled Connection, the server's socket.
struct Pair {
  boost::asio::io_context io;
  tcp::acceptor acceptor{io, tcp::endpoint(make_address("127.0.0.1"), 0)};
  tcp::socket server{io};
  std::unique_ptr<inferperf::transport::Connection> client;
  Pair() {
    tcp::socket c(io);
    c.connect(acceptor.local_endpoint());
    acceptor.accept(server);
    client = std::make_unique<inferperf::transport::Connection>(std::move(c));
  }
  // The peer's close or bytes take a moment to arrive, even on loopback.
  bool becomes_unusable() const {
    for (int i = 0; i < 200; ++i) {
      if (!client->idle_usable()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
};

TEST(IdleConnection, UsableWhileTheServerKeepsItOpenAndQuiet) {
  Pair p;
  EXPECT_TRUE(p.client->idle_usable());
  EXPECT_FALSE(p.becomes_unusable());
}

TEST(IdleConnection, ServerCloseMakesItUnusable) {
  Pair p;
  p.server.close();
  EXPECT_TRUE(p.becomes_unusable());
}

TEST(IdleConnection, UnaskedBytesMakeItUnusable) {
  Pair p;
  boost::asio::write(p.server,
                     boost::asio::buffer(std::string("HTTP/1.1 408 Request Timeout\r\n\r\n")));
  EXPECT_TRUE(p.becomes_unusable());
}

TEST(IdleConnection, ClosedLocallyIsUnusable) {
  Pair p;
  boost::system::error_code ec;
  p.client->close(ec);
  EXPECT_FALSE(p.client->idle_usable());
}

// write_now: the request written straight to a plain socket, what it does not take left to
// async_write, a real failure reported.
TEST(WriteNow, TakesASmallRequestWhole) {
  Pair p;
  const std::string request = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n\r\n";
  boost::system::error_code ec;
  EXPECT_EQ(p.client->write_now(request, ec), request.size());
  EXPECT_FALSE(ec);
  std::string got(request.size(), '\0');
  boost::asio::read(p.server, boost::asio::buffer(got));
  EXPECT_EQ(got, request);
}

TEST(WriteNow, StopsAtAFullSendBufferWithoutWaiting) {
  Pair p;
  p.client->visit_plain([](auto& s) { s.set_option(tcp::socket::send_buffer_size(4096)); });
  p.server.set_option(tcp::socket::receive_buffer_size(4096));
  const std::string request(4 << 20, 'x');  // far more than both buffers hold; nothing reads
  boost::system::error_code ec;
  const std::size_t n = p.client->write_now(request, ec);
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_GT(n, 0u);
  EXPECT_LT(n, request.size());
}

TEST(WriteNow, AResetConnectionIsAnError) {
  Pair p;
  p.server.set_option(boost::asio::socket_base::linger(true, 0));  // close sends a reset
  p.server.close();
  ASSERT_TRUE(p.becomes_unusable());
  boost::system::error_code ec;
  EXPECT_EQ(p.client->write_now("GET / HTTP/1.1\r\n\r\n", ec), 0u);
  EXPECT_TRUE(ec == boost::asio::error::connection_reset || ec == boost::asio::error::broken_pipe)
      << ec.message();
}

TEST(WriteNow, AClosedConnectionLeavesEverythingToAsyncWrite) {
  Pair p;
  boost::system::error_code ec;
  p.client->close(ec);
  EXPECT_EQ(p.client->write_now("GET / HTTP/1.1\r\n\r\n", ec), 0u);
  EXPECT_FALSE(ec);
}

}  // namespace
