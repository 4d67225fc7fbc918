// ConnectionPool: many requests starting at once share one name resolution.
#include "transport/connection_pool.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace inferperf::transport {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

TEST(ConnectionPool, SimultaneousFirstConnectsResolveOnce) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  acceptor.listen(asio::socket_base::max_listen_connections);
  const int port = acceptor.local_endpoint().port();
  auto url = parse_base_url("http://localhost:" + std::to_string(port));
  ASSERT_TRUE(url);
  ConnectionPool pool(io.get_executor(), *url);

  std::vector<tcp::socket> accepted;
  std::function<void()> accept_next = [&] {
    acceptor.async_accept([&](boost::system::error_code ec, tcp::socket s) {
      if (ec) return;
      accepted.push_back(std::move(s));
      accept_next();
    });
  };
  accept_next();

  constexpr int kRequests = 300;
  int connected = 0, failed = 0;
  std::vector<std::unique_ptr<Socket>> held;
  for (int i = 0; i < kRequests; ++i) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          try {
            held.push_back(co_await pool.connect());
            ++connected;
          } catch (const boost::system::system_error&) {
            ++failed;
          }
        },
        asio::detached);
  }
  for (int spins = 0; connected + failed < kRequests && spins < 2000; ++spins) {
    io.run_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(connected, kRequests);
  EXPECT_EQ(failed, 0);
  // "localhost" gives at most one IPv4 and one IPv6 address: one resolution's worth, not one
  // copy per request that was waiting for it.
  EXPECT_GE(pool.endpoints().size(), 1u);
  EXPECT_LE(pool.endpoints().size(), 2u);
  EXPECT_TRUE(pool.endpoints().front().address().is_v4());
}

}  // namespace
}  // namespace inferperf::transport
