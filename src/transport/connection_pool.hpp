// Per-worker pool of keep-alive TCP connections to one server. Owned by one io_context thread,
// so it needs no locking.
#pragma once
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <memory>
#include <vector>

#include "transport/url.hpp"

namespace inferperf::transport {

using Socket = boost::asio::ip::tcp::socket;

class ConnectionPool {
 public:
  ConnectionPool(boost::asio::any_io_executor executor, BaseUrl url);

  // An idle connection if one exists (reused = true), else nullptr.
  std::unique_ptr<Socket> take_idle();
  // Opens a new connection; throws boost::system::system_error on failure.
  boost::asio::awaitable<std::unique_ptr<Socket>> connect();
  void give_back(std::unique_ptr<Socket> s);
  void close_all();
  std::size_t idle_count() const { return idle_.size(); }

 private:
  boost::asio::any_io_executor executor_;
  BaseUrl url_;
  std::vector<boost::asio::ip::tcp::endpoint> resolved_;
  std::vector<std::unique_ptr<Socket>> idle_;
};

}  // namespace inferperf::transport
