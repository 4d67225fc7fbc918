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

void CancelHandle::cancel(std::string type, std::string message, std::optional<int> code) {
  if (cancelled_) return;
  cancelled_ = true;
  reason_ = ExchangeError{std::move(type), std::move(message), code};
  if (socket_) {
    error_code ec;
    socket_->close(ec);
  }
}

// Named, not anonymous: an Attempt lives in http_exchange's coroutine frame, and a type with
// internal linkage there draws -Wsubobject-linkage in unity builds.
namespace detail {
struct Attempt {
  std::optional<ExchangeError> error;
  bool retryable = false;  // failed on a reused connection before any response byte
};
}  // namespace detail

namespace {

using detail::Attempt;

std::string error_type_for(const error_code& ec) {
  if (ec == asio::error::connection_refused) return "ConnectionRefusedError";
  if (ec == asio::error::connection_reset) return "ConnectionResetError";
  if (ec == asio::error::eof) return "ServerDisconnectedError";
  if (ec == asio::error::timed_out) return "TimeoutError";
  if (std::string_view(ec.category().name()) == "beast.http") return "ClientPayloadError";
  return "ClientConnectionError";
}

// A failed TLS handshake: Python's ssl exception names (aiohttp reports them wrapped), with the
// OpenSSL reason, e.g. "certificate verify failed: unable to get local issuer certificate".
ExchangeError tls_error(const error_code& ec, SSL* ssl) {
  if (ec.category() == asio::error::get_ssl_category()) {
    const auto reason = ERR_GET_REASON(static_cast<unsigned long>(ec.value()));
    if (reason == SSL_R_CERTIFICATE_VERIFY_FAILED) {
      const long verify = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;
      std::string why = verify != X509_V_OK ? X509_verify_cert_error_string(verify) : ec.message();
      return ExchangeError{"SSLCertVerificationError", "certificate verify failed: " + why,
                           std::nullopt};
    }
    return ExchangeError{"SSLError", "TLS handshake failed: " + ec.message(), std::nullopt};
  }
  if (ec == asio::error::eof || ec == asio::ssl::error::stream_truncated) {
    return ExchangeError{"SSLError", "TLS handshake failed: the server closed the connection",
                         std::nullopt};
  }
  return ExchangeError{error_type_for(ec), "TLS handshake failed: " + ec.message(), std::nullopt};
}

// A read that failed (not cancelled): a body cut short after a good response head, or the
// connection lost before one.
ExchangeError read_error(const error_code& ec, bool header_done) {
  if (ec == asio::error::eof && header_done) {
    // aiohttp's name for a body cut short after a good response head.
    return ExchangeError{"ClientPayloadError", "Response payload is not completed", std::nullopt};
  }
  return ExchangeError{
      error_type_for(ec),
      ec == asio::error::eof ? "Server disconnected before sending a response" : ec.message(),
      std::nullopt};
}

ExchangeError too_large_error(std::uint64_t limit) {
  return ExchangeError{
      "ResponseTooLargeError",
      "response body exceeded --max-response-bytes (" + core::format_byte_size(limit) + ")",
      std::nullopt};
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

asio::awaitable<Attempt> attempt(ConnectionPool& pool, ExchangeRequest request, ResponseSink& sink,
                                 const core::Clock& clock, ExchangeTimings& t, CancelHandle& cancel,
                                 bool fresh) {
  Attempt result;
  std::unique_ptr<Socket> sock = fresh ? nullptr : pool.take_idle(request.pool_key);
  // The server closed this reused connection under the request: it never saw the request.
  auto closed_under_request = [&] {
    if (!t.connection_reused || t.first_byte_ns != 0 || cancel.cancelled()) return false;
    pool.note_reuse_failure(*sock);
    return true;
  };
  t.connection_reused = sock != nullptr;
  if (!sock) {
    t.connect_start_ns = clock.now_ns();
    try {
      sock = co_await pool.connect();
    } catch (const boost::system::system_error& e) {
      if (cancel.cancelled()) {
        result.error = cancel.reason();
      } else {
        // A --local-address failure names the address; the type still follows the code.
        const auto* local = dynamic_cast<const LocalAddressError*>(&e);
        result.error = ExchangeError{error_type_for(e.code()),
                                     local ? local->detail() : e.code().message(), std::nullopt};
      }
      co_return result;
    }
    t.connect_end_ns = clock.now_ns();
  }
  cancel.attach(sock.get());
  if (cancel.cancelled()) {
    result.error = cancel.reason();
    co_return result;
  }
  if (!t.connection_reused && sock->is_tls()) {
    error_code hec;
    t.tls_handshake_start_ns = clock.now_ns();
    co_await sock->handshake(hec);
    t.tls_handshake_end_ns = clock.now_ns();
    if (hec) {
      cancel.detach();
      result.error = cancel.cancelled() ? cancel.reason() : tls_error(hec, sock->tls_handle());
      sock->close(hec);
      co_return result;
    }
  }

  error_code ec;
  t.send_start_ns = clock.now_ns();
  std::size_t written =
      co_await asio::async_write(*sock, asio::buffer(request.bytes.data(), request.bytes.size()),
                                 asio::redirect_error(asio::use_awaitable, ec));
  t.send_end_ns = clock.now_ns();
  t.bytes_sent = static_cast<std::int64_t>(written);
  if (!ec && request.on_sent) request.on_sent();
  if (ec) {
    cancel.detach();
    if (cancel.cancelled()) {
      result.error = cancel.reason();
    } else {
      result.retryable = closed_under_request();
      result.error =
          ExchangeError{error_type_for(ec), "write failed: " + ec.message(), std::nullopt};
    }
    co_return result;
  }

  ResponseParser parser(request.max_body_bytes);
  std::string pending;
  // Per in-flight request, so kept small; left uninitialised (zero-filling it cost more per
  // request than parsing a streamed event).
  constexpr std::size_t kReadBufferBytes = 16 * 1024;
  const std::unique_ptr<char[]> read_buf(new char[kReadBufferBytes]);
  bool headers_reported = false;
  while (!parser.is_done()) {
    std::size_t n = co_await sock->async_read_some(asio::buffer(read_buf.get(), kReadBufferBytes),
                                                   asio::redirect_error(asio::use_awaitable, ec));
    const core::MonoNs ts = clock.now_ns();  // stamped before any parsing
    // A TLS peer closing without close_notify is an ordinary end of stream here.
    if (ec == asio::ssl::error::stream_truncated) ec = asio::error::eof;
    if (n > 0) {
      const std::uint32_t read_index = t.reads++;
      if (t.first_byte_ns == 0) t.first_byte_ns = ts;
      t.bytes_received += static_cast<std::int64_t>(n);
      // Parsed straight from the read buffer; only bytes the parser could not take yet (a
      // chunk header cut by the read) are kept for the next read.
      std::string_view avail(read_buf.get(), n);
      if (!pending.empty()) {
        pending.append(avail);
        avail = pending;
      }
      std::size_t off = 0;
      while (off < avail.size() && !parser.is_done()) {
        error_code pec;
        const std::size_t used =
            parser.put(asio::buffer(avail.data() + off, avail.size() - off), pec);
        off += used;
        if (pec == http::error::need_more) break;
        if (pec) {
          // The socket closes with `sock` on return: a connection left mid-body is never reused.
          cancel.detach();
          t.end_ns = ts;
          result.error =
              pec == http::error::body_limit
                  ? too_large_error(request.max_body_bytes)
                  : ExchangeError{"ClientPayloadError", "invalid HTTP response: " + pec.message(),
                                  std::nullopt};
          co_return result;
        }
        if (used == 0) break;
      }
      if (!pending.empty()) {
        pending.erase(0, off);
      } else if (off < avail.size()) {
        pending.assign(avail.substr(off));
      }
      if (parser.is_header_done() && !headers_reported) {
        headers_reported = true;
        t.headers_ns = ts;
        sink.on_header_fields(parser.headers_text());
        sink.on_headers(parser.status(), parser.reason(), parser.content_type(), ts);
      }
      if (!parser.body_out().empty()) {
        sink.on_body(parser.body_out(), ts, read_index);
        parser.body_out().clear();
      }
      if (!sink.wants_more()) break;
    }
    if (ec) {
      if (ec == asio::error::eof && parser.is_header_done() && !parser.is_done()) {
        // A body delimited by connection close ends here.
        error_code eec;
        parser.put_eof(eec);
        if (!eec) break;
      }
      cancel.detach();
      t.end_ns = ts;
      if (cancel.cancelled()) {
        result.error = cancel.reason();
      } else {
        result.retryable = closed_under_request();
        result.error = read_error(ec, parser.is_header_done());
      }
      co_return result;
    }
  }
  t.end_ns = clock.now_ns();
  cancel.detach();
  release_connection(pool, std::move(sock), parser, sink.wants_more() && pending.empty(),
                     request.pool_key);
  co_return result;
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
