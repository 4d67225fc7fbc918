// ConnectionPool: many requests starting at once share one name resolution; --local-address
// spreads connections over source addresses.
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

// Connects `n` times, one after another, through `pool` to `acceptor` and returns the remote
// (client source) address of each accepted socket, in order; a failed connect adds its message.
std::vector<std::string> connect_sequentially(asio::io_context& io, tcp::acceptor& acceptor,
                                              ConnectionPool& pool, int n) {
  std::vector<std::string> seen;
  std::vector<std::unique_ptr<Socket>> held;
  bool done = false;
  io.restart();  // an earlier call ran it out of work
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (int i = 0; i < n; ++i) {
          try {
            held.push_back(co_await pool.connect());
            tcp::socket accepted = co_await acceptor.async_accept(asio::use_awaitable);
            seen.push_back(accepted.remote_endpoint().address().to_string());
          } catch (const LocalAddressError& e) {
            seen.push_back("error: " + e.detail());
          }
        }
        done = true;
      },
      asio::detached);
  for (int spins = 0; !done && spins < 2000; ++spins) io.run_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(done);
  return seen;
}

TEST(ConnectionPool, LocalAddressesAlternateRoundRobin) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  acceptor.listen();
  auto url = parse_base_url("http://127.0.0.1:" + std::to_string(acceptor.local_endpoint().port()));
  ASSERT_TRUE(url);
  ConnectionPool pool(io.get_executor(), *url);
  pool.set_local_addresses({"127.0.0.1", "127.0.0.2"});
  EXPECT_EQ(connect_sequentially(io, acceptor, pool, 6),
            (std::vector<std::string>{"127.0.0.1", "127.0.0.2", "127.0.0.1", "127.0.0.2",
                                      "127.0.0.1", "127.0.0.2"}));

  // A second worker's pool starts one address further on.
  ConnectionPool second(io.get_executor(), *url);
  second.set_local_addresses({"127.0.0.1", "127.0.0.2", "127.0.0.3"}, 4);
  EXPECT_EQ(connect_sequentially(io, acceptor, second, 4),
            (std::vector<std::string>{"127.0.0.2", "127.0.0.3", "127.0.0.1", "127.0.0.2"}));
}

TEST(ConnectionPool, LocalAddressFailuresNameTheAddress) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  acceptor.listen();
  auto url = parse_base_url("http://127.0.0.1:" + std::to_string(acceptor.local_endpoint().port()));
  ASSERT_TRUE(url);
  ConnectionPool pool(io.get_executor(), *url);
  // ::1 has no IPv4 server address to go to; 192.0.2.1 (TEST-NET-1) is not on this host.
  pool.set_local_addresses({"::1", "192.0.2.1", "127.0.0.2"});
  const auto seen = connect_sequentially(io, acceptor, pool, 3);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], "error: --local-address ::1: 127.0.0.1 has no IPv6 address");
  EXPECT_EQ(seen[1].rfind("error: ", 0), 0u) << seen[1];
  EXPECT_NE(seen[1].find("(bind to --local-address 192.0.2.1)"), std::string::npos) << seen[1];
  EXPECT_EQ(seen[2], "127.0.0.2");
}

}  // namespace
}  // namespace inferperf::transport
