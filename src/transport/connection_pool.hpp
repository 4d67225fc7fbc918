// Per-worker pool of keep-alive TCP connections to one server. Owned by one io_context thread,
// so it needs no locking.
#pragma once
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "transport/url.hpp"

namespace inferperf::transport {

using Socket = boost::asio::ip::tcp::socket;

class ConnectionPool {
 public:
  ConnectionPool(boost::asio::any_io_executor executor, BaseUrl url);

  // --connection-reuse-strategy never: every request opens a connection and closes it after.
  void set_reuse(bool reuse) { reuse_ = reuse; }
  // An idle connection if one exists (reused = true), else nullptr. `key` >= 0 selects the
  // connection kept for one session (sticky-user-sessions); -1 the shared idle list.
  std::unique_ptr<Socket> take_idle(std::int64_t key = -1);
  // Opens a new connection; throws boost::system::system_error on failure.
  boost::asio::awaitable<std::unique_ptr<Socket>> connect();
  void give_back(std::unique_ptr<Socket> s, std::int64_t key = -1);
  // Closes the connection kept for `key` (a sticky session that ended).
  void drop(std::int64_t key);
  void close_all();
  std::size_t idle_count() const { return idle_.size(); }

 private:
  boost::asio::any_io_executor executor_;
  BaseUrl url_;
  std::vector<boost::asio::ip::tcp::endpoint> resolved_;
  std::vector<std::unique_ptr<Socket>> idle_;
  std::unordered_map<std::int64_t, std::unique_ptr<Socket>> keyed_;
  bool reuse_ = true;
};

}  // namespace inferperf::transport
