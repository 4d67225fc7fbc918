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
#include "transport/response_parser.hpp"

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

// Named, not anonymous: an Attempt and a ResponseReader live in coroutine frames, and a type with
// internal linkage there draws -Wsubobject-linkage in unity builds.
namespace detail {
struct Attempt {
  std::optional<ExchangeError> error;
  bool retryable = false;  // failed on a reused connection before any response byte
};

// The response side of one attempt: the parser, the read buffer and the bytes a read left
// unparsed. Plain functions, so the read loop in attempt() keeps only its awaits.
class ResponseReader {
 public:
  explicit ResponseReader(std::uint64_t max_body_bytes)
      : parser_(max_body_bytes), buf_(new char[kBufferBytes]) {}

  asio::mutable_buffer buffer() const { return asio::buffer(buf_.get(), kBufferBytes); }
  bool done() const { return parser_.is_done(); }
  const ResponseParser& parser() const { return parser_; }
  // Every byte read was parsed: a connection with leftovers is never reused.
  bool all_used() const { return pending_.empty(); }

  // Takes the `n` bytes the read stamped `ts` left in the buffer: counts them in `t`, parses
  // them and hands the head and body to `sink`. Returns the parser's error (an invalid or
  // oversized response), empty when the bytes were good.
  error_code consume(std::size_t n, core::MonoNs ts, ExchangeTimings& t, ResponseSink& sink);
  // At end of stream: true when it completes a body delimited by connection close.
  bool ends_at_close(const error_code& ec);

 private:
  // Per in-flight request, so kept small; left uninitialised (zero-filling it cost more per
  // request than parsing a streamed event).
  static constexpr std::size_t kBufferBytes = 16 * 1024;

  error_code parse(std::string_view read);
  void deliver(core::MonoNs ts, std::uint32_t read_index, ExchangeTimings& t, ResponseSink& sink);

  ResponseParser parser_;
  std::string pending_;
  const std::unique_ptr<char[]> buf_;
  bool headers_reported_ = false;
};

error_code ResponseReader::consume(std::size_t n, core::MonoNs ts, ExchangeTimings& t,
                                   ResponseSink& sink) {
  const std::uint32_t read_index = t.reads++;
  if (t.first_byte_ns == 0) t.first_byte_ns = ts;
  t.bytes_received += static_cast<std::int64_t>(n);
  if (const error_code pec = parse(std::string_view(buf_.get(), n))) return pec;
  deliver(ts, read_index, t, sink);
  return {};
}

// Parsed straight from the read buffer; only bytes the parser could not take yet (a chunk header
// cut by the read) are kept for the next read.
error_code ResponseReader::parse(std::string_view read) {
  std::string_view avail = read;
  if (!pending_.empty()) {
    pending_.append(avail);
    avail = pending_;
  }
  std::size_t off = 0;
  while (off < avail.size() && !parser_.is_done()) {
    error_code pec;
    const std::size_t used = parser_.put(asio::buffer(avail.data() + off, avail.size() - off), pec);
    off += used;
    if (pec == http::error::need_more) break;
    if (pec) return pec;
    if (used == 0) break;
  }
  if (!pending_.empty()) {
    pending_.erase(0, off);
  } else if (off < avail.size()) {
    pending_.assign(avail.substr(off));
  }
  return {};
}

void ResponseReader::deliver(core::MonoNs ts, std::uint32_t read_index, ExchangeTimings& t,
                             ResponseSink& sink) {
  if (parser_.is_header_done() && !headers_reported_) {
    headers_reported_ = true;
    t.headers_ns = ts;
    sink.on_header_fields(parser_.headers_text());
    sink.on_headers(parser_.status(), parser_.reason(), parser_.content_type(), ts);
  }
  if (!parser_.body_out().empty()) {
    sink.on_body(parser_.body_out(), ts, read_index);
    parser_.body_out().clear();
  }
}

bool ResponseReader::ends_at_close(const error_code& ec) {
  if (ec != asio::error::eof || !parser_.is_header_done() || parser_.is_done()) return false;
  error_code eec;
  parser_.put_eof(eec);
  return !eec;
}
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
                        const ResponseParser& parser, bool clean, std::int64_t pool_key) {
  if (parser.is_done() && parser.keep_alive() && clean) {
    const bool streamed = parser.content_type().find("text/event-stream") != std::string::npos;
    pool.give_back(std::move(sock), pool_key, streamed);
    return;
  }
  error_code ec;
  sock->close(ec);
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
  std::size_t written =
      co_await asio::async_write(*sock, asio::buffer(request.bytes.data(), request.bytes.size()),
                                 asio::redirect_error(asio::use_awaitable, ec));
  t.send_end_ns = clock.now_ns();
  t.bytes_sent = static_cast<std::int64_t>(written);
  if (ec) {
    co_return socket_failure(pool, *sock, t, cancel, [&] {
      return ExchangeError{error_kind_for(ec), "write failed: " + ec.message(), std::nullopt};
    });
  }
  if (request.on_sent) request.on_sent();

  detail::ResponseReader reader(request.max_body_bytes);
  while (!reader.done()) {
    std::size_t n = co_await sock->async_read_some(reader.buffer(),
                                                   asio::redirect_error(asio::use_awaitable, ec));
    const core::MonoNs ts = clock.now_ns();  // stamped before any parsing
    // A TLS peer closing without close_notify is an ordinary end of stream here.
    if (ec == asio::ssl::error::stream_truncated) ec = asio::error::eof;
    if (n > 0) {
      if (const error_code pec = reader.consume(n, ts, t, sink)) {
        // The socket closes with `sock` on return: a connection left mid-body is never reused.
        cancel.detach();
        t.end_ns = ts;
        co_return Attempt{parse_error(pec, request.max_body_bytes)};
      }
      if (!sink.wants_more()) break;
    }
    if (ec) {
      if (reader.ends_at_close(ec)) break;
      t.end_ns = ts;
      co_return socket_failure(pool, *sock, t, cancel,
                               [&] { return read_error(ec, reader.parser().is_header_done()); });
    }
  }
  t.end_ns = clock.now_ns();
  cancel.detach();
  release_connection(pool, std::move(sock), reader.parser(), sink.wants_more() && reader.all_used(),
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
