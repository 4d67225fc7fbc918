#include "server.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "http_session.hpp"

namespace inferperf::mock {

namespace asio = boost::asio;
using asio::ip::tcp;

MockServer::MockServer(MockOptions options, std::shared_ptr<const tokenizer::Tokenizer> tokenizer)
    : state_(std::move(options), std::move(tokenizer)), acceptor_(io_), unix_acceptor_(io_) {
  const MockOptions& o = state_.options;
  if (!o.tls_cert.empty() || !o.tls_key.empty()) {
    if (o.tls_cert.empty() || o.tls_key.empty()) {
      throw std::runtime_error("--tls-cert and --tls-key must be given together");
    }
    tls_ = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
    tls_->use_certificate_chain_file(o.tls_cert);
    tls_->use_private_key_file(o.tls_key, asio::ssl::context::pem);
  }
}

std::uint16_t MockServer::bind() {
  const MockOptions& o = state_.options;
  if (!o.unix_socket.empty()) {
    std::error_code rm;
    if (std::filesystem::is_socket(o.unix_socket, rm))
      std::filesystem::remove(o.unix_socket, rm);  // left by an earlier run
    asio::local::stream_protocol::endpoint ep(o.unix_socket);
    unix_acceptor_.open(ep.protocol());
    unix_acceptor_.bind(ep);
    unix_acceptor_.listen(asio::socket_base::max_listen_connections);
    return 0;
  }
  tcp::resolver resolver(io_);
  auto results = resolver.resolve(o.host, std::to_string(o.port));
  tcp::endpoint ep = results.begin()->endpoint();
  acceptor_.open(ep.protocol());
  acceptor_.set_option(asio::socket_base::reuse_address(true));
  acceptor_.bind(ep);
  acceptor_.listen(asio::socket_base::max_listen_connections);
  return acceptor_.local_endpoint().port();
}

template <typename Socket>
void MockServer::start_session(Socket s) {
  if (tls_) {
    using TlsStream = asio::ssl::stream<Socket>;
    auto session =
        std::make_shared<detail::HttpSession<TlsStream>>(state_, TlsStream(std::move(s), *tls_));
    asio::co_spawn(
        io_, [session]() { return session->serve(); }, asio::detached);
  } else {
    auto session = std::make_shared<detail::HttpSession<Socket>>(state_, std::move(s));
    asio::co_spawn(
        io_, [session]() { return session->serve(); }, asio::detached);
  }
}

void MockServer::run() {
  // One accept loop for either listener; errors such as EMFILE keep the server serving the
  // connections it has.
  auto accept_loop = [this](auto& acceptor) -> asio::awaitable<void> {
    for (;;) {
      boost::system::error_code ec;
      auto s = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        if (ec == asio::error::operation_aborted) co_return;
        continue;
      }
      if constexpr (std::is_same_v<decltype(s), tcp::socket>) s.set_option(tcp::no_delay(true), ec);
      start_session(std::move(s));
    }
  };
  if (unix_acceptor_.is_open()) {
    asio::co_spawn(io_, accept_loop(unix_acceptor_), asio::detached);
  } else {
    asio::co_spawn(io_, accept_loop(acceptor_), asio::detached);
  }
  asio::signal_set signals(io_, SIGINT, SIGTERM);
  signals.async_wait([this](const boost::system::error_code& ec, int) {
    if (!ec) stop();
  });
  std::vector<std::thread> threads;
  for (int i = 1; i < state_.options.workers; ++i) threads.emplace_back([this] { io_.run(); });
  io_.run();
  for (auto& t : threads) t.join();
}

void MockServer::stop() {
  asio::post(io_, [this] {
    boost::system::error_code ec;
    acceptor_.close(ec);
    unix_acceptor_.close(ec);
    io_.stop();
  });
}

}  // namespace inferperf::mock
