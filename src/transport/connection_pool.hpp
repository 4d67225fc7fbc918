// Per-worker pool of keep-alive connections (TCP, TLS, Unix socket) to one server. Owned by one
// io_context thread, so it needs no locking.
#pragma once
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "transport/connection.hpp"
#include "transport/url.hpp"

namespace inferperf::transport {

using Socket = Connection;

class ConnectionPool {
 public:
  // `tls` is the client context for an https:// URL (null: one verifying against the system
  // store is made); `unix_socket`, when set, replaces the URL's host and port.
  ConnectionPool(boost::asio::any_io_executor executor, BaseUrl url,
                 std::shared_ptr<boost::asio::ssl::context> tls = nullptr,
                 std::string unix_socket = {});

  // --connection-reuse-strategy never: every request opens a connection and closes it after.
  void set_reuse(bool reuse) { reuse_ = reuse; }
  // An idle connection if one exists (reused = true), else nullptr. `key` >= 0 selects the
  // connection kept for one session (sticky-user-sessions); -1 the shared idle list.
  std::unique_ptr<Socket> take_idle(std::int64_t key = -1);
  // Opens a new connection; throws boost::system::system_error on failure. A TLS connection
  // comes back before its handshake (Connection::handshake), so the two are timed apart.
  boost::asio::awaitable<std::unique_ptr<Socket>> connect();
  void give_back(std::unique_ptr<Socket> s, std::int64_t key = -1);
  // Closes the connection kept for `key` (a sticky session that ended).
  void drop(std::int64_t key);
  void close_all();
  std::size_t idle_count() const { return idle_.size(); }
  // The server's addresses, once the first connect resolved them (in the order connects try).
  const std::vector<boost::asio::ip::tcp::endpoint>& endpoints() const { return resolved_; }

 private:
  boost::asio::any_io_executor executor_;
  BaseUrl url_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  std::string unix_socket_;
  std::vector<boost::asio::ip::tcp::endpoint> resolved_;
  bool resolving_ = false;                  // a request is resolving the host now
  boost::asio::steady_timer resolve_done_;  // cancelled when it finishes: wakes the waiters
  std::vector<std::unique_ptr<Socket>> idle_;
  std::unordered_map<std::int64_t, std::unique_ptr<Socket>> keyed_;
  bool reuse_ = true;
};

}  // namespace inferperf::transport
