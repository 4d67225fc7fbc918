#include "transport/http_exchange.hpp"

#include <openssl/err.h>
#include <openssl/x509.h>
#include <boost/asio/buffer.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>

#include "core/byte_size.hpp"
#include "transport/plain_read.hpp"
#include "transport/response_reader.hpp"

namespace inferperf::transport {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using boost::system::error_code;

void CancelHandle::cancel(core::RequestErrorKind kind, std::string message,
                          std::optional<int> code) {
  if (cancelled_) return;
  cancelled_ = true;
  reason_ = ExchangeError{kind, std::move(message), code};
  if (socket_) {
    error_code ec;
    socket_->close(ec);
  }
}

// Named, not anonymous: an Attempt lives in coroutine frames, and a type with internal linkage
// there draws -Wsubobject-linkage in unity builds.
namespace detail {
struct Attempt {
  std::optional<ExchangeError> error;
  bool retryable = false;  // failed on a reused connection before any response byte
};
}  // namespace detail

namespace {

using detail::Attempt;

using core::RequestErrorKind;

RequestErrorKind error_kind_for(const error_code& ec) {
  if (ec == asio::error::connection_refused) return RequestErrorKind::kConnectionRefused;
  if (ec == asio::error::connection_reset) return RequestErrorKind::kConnectionReset;
  if (ec == asio::error::eof) return RequestErrorKind::kServerDisconnected;
  if (ec == asio::error::timed_out) return RequestErrorKind::kTimeout;
  if (std::string_view(ec.category().name()) == "beast.http") {
    return RequestErrorKind::kClientPayload;
  }
  return RequestErrorKind::kClientConnection;
}

// A connection that could not be opened; a cancellation closing it under the connect reports
// the cancellation.
ExchangeError connect_error(const boost::system::system_error& e, const CancelHandle& cancel) {
  if (cancel.cancelled()) return cancel.reason();
  // A --local-address failure names the address; the type still follows the code.
  const auto* local = dynamic_cast<const LocalAddressError*>(&e);
  return ExchangeError{error_kind_for(e.code()), local ? local->detail() : e.code().message(),
                       std::nullopt};
}

// A failed TLS handshake: Python's ssl exception names (aiohttp reports them wrapped), with the
// OpenSSL reason, e.g. "certificate verify failed: unable to get local issuer certificate".
ExchangeError tls_error(const error_code& ec, SSL* ssl) {
  if (ec.category() == asio::error::get_ssl_category()) {
    const auto reason = ERR_GET_REASON(static_cast<unsigned long>(ec.value()));
    if (reason == SSL_R_CERTIFICATE_VERIFY_FAILED) {
      const long verify = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;
      std::string why = verify != X509_V_OK ? X509_verify_cert_error_string(verify) : ec.message();
      return ExchangeError{RequestErrorKind::kSslCertVerification,
                           "certificate verify failed: " + why, std::nullopt};
    }
    return ExchangeError{RequestErrorKind::kSsl, "TLS handshake failed: " + ec.message(),
                         std::nullopt};
  }
  if (ec == asio::error::eof || ec == asio::ssl::error::stream_truncated) {
    return ExchangeError{RequestErrorKind::kSsl,
                         "TLS handshake failed: the server closed the connection", std::nullopt};
  }
  return ExchangeError{error_kind_for(ec), "TLS handshake failed: " + ec.message(), std::nullopt};
}

// A handshake that failed: the connection is closed, and a cancellation reports itself.
ExchangeError handshake_failure(error_code ec, Socket& sock, CancelHandle& cancel) {
  cancel.detach();
  ExchangeError error = cancel.cancelled() ? cancel.reason() : tls_error(ec, sock.tls_handle());
  sock.close(ec);
  return error;
}

// A read that failed (not cancelled): a body cut short after a good response head, or the
// connection lost before one.
ExchangeError read_error(const error_code& ec, bool header_done) {
  if (ec == asio::error::eof && header_done) {
    // aiohttp's name for a body cut short after a good response head.
    return ExchangeError{RequestErrorKind::kClientPayload, "Response payload is not completed",
                         std::nullopt};
  }
  return ExchangeError{
      error_kind_for(ec),
      ec == asio::error::eof ? "Server disconnected before sending a response" : ec.message(),
      std::nullopt};
}

// A response the parser refused: over --max-response-bytes, or not HTTP.
ExchangeError parse_error(const error_code& pec, std::uint64_t limit) {
  if (pec == http::error::body_limit) {
    return ExchangeError{
        RequestErrorKind::kResponseTooLarge,
        "response body exceeded --max-response-bytes (" + core::format_byte_size(limit) + ")",
        std::nullopt};
  }
  return ExchangeError{RequestErrorKind::kClientPayload, "invalid HTTP response: " + pec.message(),
                       std::nullopt};
}

// A write or read that failed on the socket. A cancellation closed it: its reason is reported.
// Otherwise `describe()` names the failure, retryable when the server closed a reused connection
// under the request (no response byte yet), so it never saw the request.
template <typename Describe>
Attempt socket_failure(ConnectionPool& pool, Socket& sock, const ExchangeTimings& t,
                       CancelHandle& cancel, Describe describe) {
  cancel.detach();
  Attempt result;
  if (cancel.cancelled()) {
    result.error = cancel.reason();
    return result;
  }
  if (t.connection_reused && t.first_byte_ns == 0) {
    pool.note_reuse_failure(sock);
    result.retryable = true;
  }
  result.error = describe();
  return result;
}

// After a whole response: back to the pool when the response allows keep-alive and the exchange
// used every byte (`clean`), marked with whether it carried a stream; else closed.
void release_connection(ConnectionPool& pool, std::unique_ptr<Socket> sock,
                        const ResponseReader& reader, bool clean, std::int64_t pool_key) {
  const ResponseHead& head = reader.head();
  if (reader.done() && head.keep_alive() && clean) {
    const bool streamed = head.content_type.find("text/event-stream") != std::string::npos;
    pool.give_back(std::move(sock), pool_key, streamed);
    return;
  }
  error_code ec;
  sock->close(ec);
}

// Kernel receive stamps are in CLOCK_MONOTONIC's base: they apply only with the steady clock
// (a test's fake clock keeps its own readings).
bool kernel_stamps_apply(const core::Clock& clock) {
  return dynamic_cast<const core::SteadyClock*>(&clock) != nullptr;
}

// The read side on a TLS connection: one coroutine resumption per TLS read (OpenSSL decrypts
// records, so a read's bytes have no kernel stamp of their own); stamped by the clock.
asio::awaitable<ReadOutcome> read_tls_response(Socket& sock, ResponseReader& reader,
                                               ResponseSink& sink, const core::Clock& clock,
                                               ExchangeTimings& t) {
  char* buf = sock.read_buffer();
  ReadOutcome r;
  while (!reader.done()) {
    const std::size_t n =
        co_await sock.async_read_some(asio::buffer(buf, Socket::kReadBufferBytes),
                                      asio::redirect_error(asio::use_awaitable, r.ec));
    r.ts = clock.now_ns();  // stamped before any parsing
    // A TLS peer closing without close_notify is an ordinary end of stream here.
    if (r.ec == asio::ssl::error::stream_truncated) r.ec = asio::error::eof;
    if (n > 0) {
      r.pec = reader.consume(std::string_view(buf, n), r.ts, t, sink);
      if (r.pec || !sink.wants_more()) break;
    }
    if (r.ec) break;
  }
  co_return r;
}

// One send of the request: connect (or reuse), handshake, write, read until the response is
// whole. Every step but the awaits is a plain function above, so this is the attempt's only
// coroutine frame. `request` lives in http_exchange's frame, which outlives this one.
asio::awaitable<Attempt> attempt(ConnectionPool& pool, const ExchangeRequest& request,
                                 ResponseSink& sink, const core::Clock& clock, ExchangeTimings& t,
                                 CancelHandle& cancel, bool fresh) {
  std::unique_ptr<Socket> sock = fresh ? nullptr : pool.take_idle(request.pool_key);
  t.connection_reused = sock != nullptr;
  if (!sock) {
    t.connect_start_ns = clock.now_ns();
    try {
      sock = co_await pool.connect();
    } catch (const boost::system::system_error& e) {
      co_return Attempt{connect_error(e, cancel)};
    }
    t.connect_end_ns = clock.now_ns();
  }
  cancel.attach(sock.get());
  if (cancel.cancelled()) co_return Attempt{cancel.reason()};
  if (!t.connection_reused && sock->is_tls()) {
    error_code hec;
    t.tls_handshake_start_ns = clock.now_ns();
    co_await sock->handshake(hec);
    t.tls_handshake_end_ns = clock.now_ns();
    if (hec) co_return Attempt{handshake_failure(hec, *sock, cancel)};
  }

  error_code ec;
  t.send_start_ns = clock.now_ns();
  // A plain socket almost always takes the whole request at once: written directly, the send
  // costs no operation, completion and resumption through the loop (about 1,400 of a non-streamed
  // request's 22,200 worker instructions, docs/decisions.md). What it does not take goes through
  // async_write.
  std::size_t written = sock->write_now(request.bytes, ec);
  if (!ec && written < request.bytes.size()) {
    const std::string_view rest = request.bytes.substr(written);
    written += co_await asio::async_write(*sock, asio::buffer(rest.data(), rest.size()),
                                          asio::redirect_error(asio::use_awaitable, ec));
  }
  t.send_end_ns = clock.now_ns();
  t.bytes_sent = static_cast<std::int64_t>(written);
  if (ec) {
    co_return socket_failure(pool, *sock, t, cancel, [&] {
      return ExchangeError{error_kind_for(ec), "write failed: " + ec.message(), std::nullopt};
    });
  }
  if (request.on_sent) request.on_sent();

  ResponseReader reader(request.max_body_bytes);
  ReadOutcome r;
  if (sock->plain_fd() >= 0) {
    r = co_await read_plain_response(*sock, reader, sink, clock, t, kernel_stamps_apply(clock));
  } else {
    r = co_await read_tls_response(*sock, reader, sink, clock, t);
  }
  if (r.pec) {
    // The socket closes with `sock` on return: a connection left mid-body is never reused.
    cancel.detach();
    t.end_ns = r.ts;
    co_return Attempt{parse_error(r.pec, request.max_body_bytes)};
  }
  if (r.ec && !reader.ends_at_close(r.ec)) {
    t.end_ns = r.ts;
    co_return socket_failure(pool, *sock, t, cancel,
                             [&] { return read_error(r.ec, reader.head_done()); });
  }
  t.end_ns = clock.now_ns();
  cancel.detach();
  release_connection(pool, std::move(sock), reader, sink.wants_more() && reader.all_used(),
                     request.pool_key);
  co_return Attempt{};
}

}  // namespace

asio::awaitable<std::optional<ExchangeError>> http_exchange(
    ConnectionPool& pool, ExchangeRequest request, ResponseSink& sink, const core::Clock& clock,
    ExchangeTimings& timings, CancelHandle& cancel) {
  // A pooled connection the server has closed is caught before reuse (Connection::idle_usable);
  // what fails here died while the request was on it. Before any response byte that is the race
  // of a server closing an idle connection (llama.cpp's server closes a few microseconds to
  // milliseconds after each streamed response): sent once more on a new connection. The sink has
  // seen nothing, so it starts clean; the second attempt is fresh, so never retried itself.
  Attempt a = co_await attempt(pool, request, sink, clock, timings, cancel, false);
  if (a.retryable) {
    pool.behaviour().connection_retried();
    timings = ExchangeTimings{};
    timings.connection_retries = 1;
    timings.retry_start_ns = clock.now_ns();
    a = co_await attempt(pool, request, sink, clock, timings, cancel, true);
  }
  co_return a.error;
}

}  // namespace inferperf::transport
