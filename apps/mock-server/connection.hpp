// What the code answering a request sees: the connection it came on (Connection, whatever the
// stream under it) and the request itself with what its answer leaves for the connection loop
// (Exchange).
#pragma once
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "server_state.hpp"

namespace inferperf::mock::detail {

using Clock = std::chrono::steady_clock;
using Request = boost::beast::http::request<boost::beast::http::string_body>;

// One client connection: a plain TCP or Unix socket or a TLS stream over one; HttpSession
// implements it. An interface, so the answering code is compiled once rather than per stream type.
class Connection {
 public:
  explicit Connection(boost::asio::any_io_executor executor) : executor_(std::move(executor)) {}
  virtual ~Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Writes all of `data`; a failed write sets write_failed() for the rest of the connection.
  virtual boost::asio::awaitable<void> send(std::string data) = 0;
  // Closes the socket now; `reset` makes it an RST (SO_LINGER 0) rather than a FIN.
  virtual void close(bool reset) = 0;
  // Returns at `t`, at once when `t` has passed (absolute deadlines: late tokens never drift).
  boost::asio::awaitable<void> sleep_until(Clock::time_point t);
  bool write_failed() const { return write_failed_; }

 protected:
  bool write_failed_ = false;

 private:
  boost::asio::any_io_executor executor_;
};

// One request being answered. Lives in the connection loop's frame for the whole answer.
struct Exchange {
  ServerState& server;
  Connection& conn;
  Request& req;
  bool keep;                              // the request allows keep-alive
  bool preflight = false;                 // X-Inferperf-Preflight: neither faulted nor counted
  std::optional<std::string> request_id;  // X-Request-ID, kept only with --token-log
  std::time_t created = 0;                // the answer's "created" stamp
  // Left for the connection loop:
  bool close_after = false;      // X-Mock-Fault: close-after[=N]
  int close_after_delay_ms = 0;  // its N
  bool streamed = false;         // the answer was text/event-stream
};

// The value of header `name`, or nullopt when the request has none.
std::optional<std::string_view> header(const Request& req, std::string_view name);

Clock::duration ms_duration(double ms);

// --close-after-response[-delay-ms] (only after streams with --close-only-after-streams) or the
// request's close-after[=N]: how long after the answer to close; nullopt to keep the connection.
std::optional<double> close_delay_ms(const MockOptions& o, const Exchange& x);

}  // namespace inferperf::mock::detail
