#include "transport/connection.hpp"

#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <stdexcept>

#include "transport/rx_stamp.hpp"

namespace inferperf::transport {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using boost::system::error_code;

core::Result<std::shared_ptr<ssl::context>> make_client_tls_context(
    const TransportOptions& options) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  error_code ec;
  if (options.insecure) {
    ctx->set_verify_mode(ssl::verify_none);
    return ctx;
  }
  ctx->set_default_verify_paths(ec);  // a machine without a CA store still takes --ssl-ca-file
  if (!options.ssl_ca_file.empty()) {
    ctx->load_verify_file(options.ssl_ca_file, ec);
    if (ec) {
      return core::Error{core::ErrorKind::kConfig,
                         "cannot load --ssl-ca-file '" + options.ssl_ca_file + "': " + ec.message(),
                         "", 0, "ssl_ca_file"};
    }
  }
  ctx->set_verify_mode(ssl::verify_peer);
  return ctx;
}

void order_ipv4_first(std::vector<asio::ip::tcp::endpoint>& endpoints) {
  std::stable_partition(endpoints.begin(), endpoints.end(),
                        [](const asio::ip::tcp::endpoint& e) { return e.address().is_v4(); });
}

namespace {

// SNI and the name the certificate must carry. SNI is for host names only (RFC 6066); an IP
// address is matched against the certificate's IP subjectAltName entries instead.
void prepare_client_tls(SSL* ssl, const std::string& server_name) {
  if (server_name.empty()) return;
  error_code ec;
  asio::ip::make_address(server_name, ec);
  if (!ec) {
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), server_name.c_str());
    return;
  }
  if (!SSL_set_tlsext_host_name(ssl, server_name.c_str()) ||
      !SSL_set1_host(ssl, server_name.c_str())) {
    throw std::runtime_error("cannot set the TLS server name " + server_name);
  }
}

template <typename S>
auto& lowest(S& s) {
  using Plain = std::remove_const_t<S>;
  if constexpr (std::is_same_v<Plain, Connection::TlsTcp> ||
                std::is_same_v<Plain, Connection::TlsUnix>) {
    return s.next_layer();
  } else {
    return s;
  }
}

}  // namespace

Connection::Connection(Tcp s) : s_(std::in_place_type<Tcp>, std::move(s)) {
  auto& sock = std::get<Tcp>(s_);
  rx_stamped_ = sock.is_open() && enable_rx_timestamps(sock.native_handle());
  if (sock.is_open()) enable_queue_hints(sock.native_handle());  // plain_read.cpp uses them
}

int Connection::plain_fd() {
  if (auto* t = std::get_if<Tcp>(&s_)) return t->is_open() ? t->native_handle() : -1;
  if (auto* u = std::get_if<Unix>(&s_)) return u->is_open() ? u->native_handle() : -1;
  return -1;
}

std::size_t Connection::write_now(std::string_view bytes, boost::system::error_code& ec) {
  const int fd = plain_fd();
  std::size_t written = 0;
  while (fd >= 0 && written < bytes.size()) {
    const ssize_t n =
        ::send(fd, bytes.data() + written, bytes.size() - written, MSG_DONTWAIT | MSG_NOSIGNAL);
    const int err = errno;
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && err == EINTR) continue;
    // A full send buffer (or a stream socket's impossible 0) leaves the rest to async_write.
    if (n < 0 && err != EAGAIN && err != EWOULDBLOCK) {
      ec = boost::system::error_code(err, boost::system::system_category());
    }
    break;
  }
  return written;
}

Connection::Connection(Tcp s, ssl::context& tls, const std::string& server_name)
    : s_(std::in_place_type<TlsTcp>, std::move(s), tls) {
  prepare_client_tls(std::get<TlsTcp>(s_).native_handle(), server_name);
}

Connection::Connection(Unix s, ssl::context& tls, const std::string& server_name)
    : s_(std::in_place_type<TlsUnix>, std::move(s), tls) {
  prepare_client_tls(std::get<TlsUnix>(s_).native_handle(), server_name);
}

asio::awaitable<void> Connection::handshake(error_code& ec) {
  ec = {};
  if (auto* t = std::get_if<TlsTcp>(&s_)) {
    co_await t->async_handshake(ssl::stream_base::client,
                                asio::redirect_error(asio::use_awaitable, ec));
  } else if (auto* u = std::get_if<TlsUnix>(&s_)) {
    co_await u->async_handshake(ssl::stream_base::client,
                                asio::redirect_error(asio::use_awaitable, ec));
  }
}

SSL* Connection::tls_handle() {
  if (auto* t = std::get_if<TlsTcp>(&s_)) return t->native_handle();
  if (auto* u = std::get_if<TlsUnix>(&s_)) return u->native_handle();
  return nullptr;
}

bool Connection::is_open() const {
  return std::visit([](const auto& s) { return lowest(s).is_open(); }, s_);
}

bool Connection::idle_usable() const {
  drained_unchecked_ = false;  // the peek below sees whatever a drained read left
  return std::visit(
      [](const auto& s) {
        auto& sock = lowest(s);
        if (!sock.is_open()) return false;
        char byte = 0;
        // const_cast: native_handle() is non-const in Asio; a peek changes nothing.
        const int fd = const_cast<std::remove_cvref_t<decltype(sock)>&>(sock).native_handle();
        const ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
      },
      s_);
}

void Connection::close(error_code& ec) {
  ec = {};
  if (defer_close_) {
    close_pending_ = true;
    return;
  }
  close_pending_ = false;
  std::visit([&](auto& s) { lowest(s).close(ec); }, s_);
}

}  // namespace inferperf::transport
