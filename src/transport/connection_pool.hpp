// Per-worker pool of keep-alive connections (TCP, TLS, Unix socket) to one server. Owned by one
// io_context thread, so it needs no locking.
#pragma once
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/system_error.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "transport/connection.hpp"
#include "transport/server_behaviour.hpp"
#include "transport/url.hpp"

namespace inferperf::transport {

using Socket = Connection;

// A connect through a --local-address that failed (bind, connect, or no server address of the
// address's family); detail() is the message, naming the address.
class LocalAddressError : public boost::system::system_error {
 public:
  LocalAddressError(boost::system::error_code ec, std::string detail)
      : boost::system::system_error(ec), detail_(std::move(detail)) {}
  const std::string& detail() const { return detail_; }

 private:
  std::string detail_;
};

class ConnectionPool {
 public:
  // `tls` is the client context for an https:// URL (null: one verifying against the system
  // store is made); `unix_socket`, when set, replaces the URL's host and port.
  ConnectionPool(boost::asio::any_io_executor executor, BaseUrl url,
                 std::shared_ptr<boost::asio::ssl::context> tls = nullptr,
                 std::string unix_socket = {});

  // --connection-reuse-strategy never: every request opens a connection and closes it after.
  void set_reuse(bool reuse) { reuse_ = reuse; }
  // --local-address: new TCP connections bind to these source addresses in turn, beginning with
  // addresses[first % size] (ignored with a Unix socket).
  void set_local_addresses(std::vector<std::string> addresses, std::size_t first = 0) {
    local_addresses_ = std::move(addresses);
    next_local_ = local_addresses_.empty() ? 0 : first % local_addresses_.size();
  }
  // What this run learns about the server, shared with the other workers' pools for the same URL
  // (each pool has its own until this is called).
  void set_behaviour(std::shared_ptr<ServerBehaviour> b) { behaviour_ = std::move(b); }
  ServerBehaviour& behaviour() { return *behaviour_; }
  // An idle connection if one exists (reused = true), else nullptr. `key` >= 0 selects the
  // connection kept for one session (sticky-user-sessions); -1 the shared idle list. An idle
  // connection the server closed is dropped here; one closed right after a stream teaches the
  // ServerBehaviour.
  std::unique_ptr<Socket> take_idle(std::int64_t key = -1);
  // Opens a new connection; throws boost::system::system_error on failure. A TLS connection
  // comes back before its handshake (Connection::handshake), so the two are timed apart.
  boost::asio::awaitable<std::unique_ptr<Socket>> connect();
  // A connection whose response ended with keep-alive; `streamed`: that response was a stream
  // (closed instead once the server is known to close after streams).
  void give_back(std::unique_ptr<Socket> s, std::int64_t key = -1, bool streamed = false);
  // A reused connection `s` that failed before any response byte: tells the ServerBehaviour when
  // the connection had carried a stream just before (the server closed it after the stream).
  void note_reuse_failure(const Socket& s);
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
  std::shared_ptr<ServerBehaviour> behaviour_ = std::make_shared<ServerBehaviour>();
  std::vector<std::string> local_addresses_;
  std::size_t next_local_ = 0;

  // `s` is no longer usable: was it closed right after a stream?
  void note_closed_idle(const Socket& s);
  // One TCP connection from the next local address to a resolved endpoint of its family.
  boost::asio::awaitable<boost::asio::ip::tcp::socket> connect_from_local();
};

}  // namespace inferperf::transport
