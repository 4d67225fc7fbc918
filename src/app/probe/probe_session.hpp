// The transport side of `inferperf probe`: one io_context and one ConnectionPool for every request
// of the probe, so what the server does with a kept connection between requests can be observed.
// Every request has a deadline and the session sends at most kProbeMaxRequests.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "endpoint/endpoint.hpp"
#include "records/request_record.hpp"
#include "transport/connection_pool.hpp"
#include "transport/http_exchange.hpp"
#include "transport/url.hpp"

namespace inferperf::app {

// The whole probe stops after this many requests (the models list included).
inline constexpr int kProbeMaxRequests = 12;

struct ProbeReply {
  bool sent = false;  // false: the request budget was spent (or the session failed): nothing went
  std::optional<transport::ExchangeError> transport_error;
  records::RequestRecord record;  // status, content events, usage, timings, error
  std::string body;  // the response body as received (first 1 MiB): fields no decoder reads

  // Answered 2xx and decoded without an error.
  bool ok() const {
    return sent && !transport_error && transport::is_success_status(record.status) && !record.error;
  }
  // "HTTP 401: <the server's message>", "ConnectionRefusedError: ...", "" when ok().
  std::string problem() const;
};

struct ProbeTransport {
  transport::BaseUrl url;
  std::shared_ptr<boost::asio::ssl::context> tls;  // https:// (null: the system store)
  std::string unix_socket;
  std::vector<std::pair<std::string, std::string>> headers;  // user headers and auth
  double timeout_s = 10.0;                                   // per request
};

class ProbeSession {
 public:
  explicit ProbeSession(ProbeTransport t);
  ~ProbeSession();
  ProbeSession(const ProbeSession&) = delete;
  ProbeSession& operator=(const ProbeSession&) = delete;

  // GET `path` (with the query of the URL), decoded by nothing: the body is in reply.body.
  ProbeReply get(const std::string& path);
  // POST `body` to `path`, decoded by `endpoint` into reply.record.
  ProbeReply post(const endpoint::Endpoint& endpoint, const std::string& path,
                  const std::string& body, bool streaming);

  // After a response that kept its connection: waits `wait`, then tells whether that connection is
  // still usable (it is put back when it is). True also when no connection was kept (the server
  // said Connection: close); nullopt when there is nothing to tell (no request answered yet).
  std::optional<bool> connection_closed_after(std::chrono::milliseconds wait);

  transport::ServerBehaviour& behaviour() { return pool_.behaviour(); }
  int requests() const { return requests_; }
  bool failed() const { return failed_; }

 private:
  ProbeReply exchange(const endpoint::Endpoint* endpoint, const std::string& request);

  ProbeTransport t_;
  boost::asio::io_context io_;
  transport::ConnectionPool pool_;
  int requests_ = 0;
  bool failed_ = false;  // a request never finished (stuck resolver): the io_context is abandoned
  bool answered_ = false;
};

}  // namespace inferperf::app
