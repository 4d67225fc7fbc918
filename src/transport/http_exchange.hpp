// One HTTP request/response exchange over a pooled connection, with a timestamp taken the moment
// each socket read completes, before any byte is parsed.
#pragma once
#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "core/request_error.hpp"
#include "transport/connection_pool.hpp"

namespace inferperf::transport {

// RunConfig's default --max-response-bytes, for exchanges made without a RunConfig.
inline constexpr std::uint64_t kDefaultMaxResponseBytes = 256ull << 20;

// Any 2xx answer is a success, as in AIPerf 0.11 (0.6 accepted only 200): a gateway that answers
// 201 or 202 with a normal completion served the request.
constexpr bool is_success_status(int status) {
  return status >= 200 && status <= 299;
}

struct ExchangeTimings {
  core::MonoNs connect_start_ns = 0;  // 0 when a pooled connection was reused
  core::MonoNs connect_end_ns = 0;
  core::MonoNs tls_handshake_start_ns = 0;  // 0 without a TLS handshake (http://, reused)
  core::MonoNs tls_handshake_end_ns = 0;
  core::MonoNs send_start_ns = 0;
  core::MonoNs send_end_ns = 0;
  core::MonoNs headers_ns = 0;     // when the read completing the response head returned
  core::MonoNs first_byte_ns = 0;  // first response byte of any kind
  core::MonoNs end_ns = 0;
  bool connection_reused = false;
  // 1 when the request failed on a reused connection before any response byte and was sent again
  // on a new one; every other field then describes the send that counted, which began (connection
  // acquisition included) at retry_start_ns.
  std::uint32_t connection_retries = 0;
  core::MonoNs retry_start_ns = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t bytes_received = 0;
  std::uint32_t reads = 0;
  // Reads stamped with the kernel's receive time (plain TCP); the others carry the clock read
  // taken right after the read returned (TLS, Unix sockets, a read the kernel did not stamp).
  std::uint32_t kernel_stamped_reads = 0;
};

class ResponseSink {
 public:
  virtual ~ResponseSink() = default;
  virtual void on_headers(int status, std::string_view reason, std::string_view content_type,
                          core::MonoNs ts) = 0;
  // The whole response head as "name: value\n" lines, just before on_headers; for sinks that keep
  // the headers (--export-level raw).
  virtual void on_header_fields(std::string_view /*fields*/) {}
  // False when the sink ignores on_header_fields: the head parser then does not gather the lines
  // (a copy of every field of every response).
  virtual bool wants_header_fields() const { return true; }
  // Decoded body bytes; every byte delivered by one socket read carries that read's stamp.
  virtual void on_body(std::string_view bytes, core::MonoNs ts, std::uint32_t read_index) = 0;
  // Lets the sink stop the exchange early (for example after an error event); checked per read.
  virtual bool wants_more() const { return true; }
};

struct ExchangeError {
  core::RequestErrorType type;
  std::string message;
  std::optional<int> code;
};

// Cancels an exchange from the owning thread: closes its connection's socket so pending
// operations (handshake, write, read) complete with an error that is then reported as `kind`.
class CancelHandle {
 public:
  void cancel(core::RequestErrorKind kind, std::string message, std::optional<int> code);
  bool cancelled() const { return cancelled_; }
  const ExchangeError& reason() const { return reason_; }
  void attach(Socket* s) { socket_ = s; }
  void detach() { socket_ = nullptr; }

 private:
  Socket* socket_ = nullptr;
  bool cancelled_ = false;
  ExchangeError reason_;
};

struct ExchangeRequest {
  std::string_view bytes;  // the full serialized HTTP/1.1 request
  // Called on the worker thread once the whole request has been written: request cancellation
  // times from here.
  std::function<void()> on_sent = {};
  // Connection-pool key: -1 the shared pool, otherwise one session's own connection.
  std::int64_t pool_key = -1;
  // --max-response-bytes: the most decoded body bytes one response may carry (a stream's total
  // included). A larger body (or a Content-Length announcing one) ends the exchange with
  // ResponseTooLargeError and closes the connection; 0 = no cap.
  std::uint64_t max_body_bytes = kDefaultMaxResponseBytes;
};

// Runs the exchange; returns nullopt on a complete response (any status) or the error. A request
// that fails on a reused keep-alive connection before any response byte arrived (the server
// closed the connection as the request went out, so it cannot have answered it) is sent once more
// on a new connection, as curl and browsers do; any other failure is returned as it is.
boost::asio::awaitable<std::optional<ExchangeError>> http_exchange(
    ConnectionPool& pool, ExchangeRequest request, ResponseSink& sink, const core::Clock& clock,
    ExchangeTimings& timings, CancelHandle& cancel);

}  // namespace inferperf::transport
