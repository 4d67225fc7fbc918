#include "plot/dashboard.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "plot/plot_error.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

fs::path resolve_target(const fs::path& root, const std::string& target) {
  std::string path = target.substr(0, target.find_first_of("?#"));
  if (path.empty() || path[0] != '/') return {};
  if (path == "/") path = "/report.html";
  // Only plain names: no percent escapes, no parent steps, nothing hidden.
  if (path.find('%') != std::string::npos || path.find("/.") != std::string::npos ||
      path.find('\\') != std::string::npos)
    return {};
  std::error_code ec;
  const fs::path base = fs::canonical(root, ec);
  if (ec) return {};
  const fs::path file = fs::weakly_canonical(base / path.substr(1), ec);
  if (ec || !fs::is_regular_file(file, ec)) return {};
  const auto rel = file.lexically_relative(base);
  if (rel.empty() || rel.begin()->string() == "..") return {};
  return file;
}

std::string content_type(const fs::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".png") return "image/png";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".json") return "application/json";
  return "text/plain; charset=utf-8";
}

namespace {

asio::awaitable<void> serve_connection(tcp::socket socket, fs::path root) {
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    boost::system::error_code ec;
    co_await http::async_read(socket, buffer, req, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    http::response<http::string_body> res;
    res.version(req.version());
    res.keep_alive(req.keep_alive());
    res.set(http::field::server, "inferperf-plot");
    res.set(http::field::cache_control, "no-store");
    const fs::path file = resolve_target(root, std::string(req.target()));
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      res.result(http::status::method_not_allowed);
      res.set(http::field::allow, "GET, HEAD");
      res.body() = "only GET and HEAD\n";
    } else if (file.empty()) {
      res.result(http::status::not_found);
      res.set(http::field::content_type, "text/plain; charset=utf-8");
      res.body() = "not found\n";
    } else {
      std::ifstream in(file, std::ios::binary);
      std::ostringstream body;
      body << in.rdbuf();
      res.result(http::status::ok);
      res.set(http::field::content_type, content_type(file));
      res.body() = body.str();
    }
    res.prepare_payload();
    if (req.method() == http::verb::head) res.body().clear();
    co_await http::async_write(socket, res, asio::redirect_error(asio::use_awaitable, ec));
    if (ec || !res.keep_alive()) break;
  }
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, fs::path root) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket s = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
      continue;  // a connection that failed before it was accepted: keep serving
    }
    asio::co_spawn(acceptor.get_executor(), serve_connection(std::move(s), root), asio::detached);
  }
}

}  // namespace

int serve_dashboard(const fs::path& root, const std::string& host, int port,
                    const std::function<void(const std::string&)>& on_listening) {
  asio::io_context io;
  tcp::acceptor acceptor(io);
  boost::system::error_code ec;
  tcp::endpoint ep;
  if (const auto address = asio::ip::make_address(host, ec); !ec) {
    ep = tcp::endpoint(address, static_cast<unsigned short>(port));
  } else {
    // A name ("localhost"): its first address.
    tcp::resolver resolver(io);
    const auto found = resolver.resolve(host, std::to_string(port), ec);
    if (ec || found.empty())
      throw input_error("inferperf plot: --host " + host +
                        ": not an address this machine can "
                        "listen on (" +
                        (ec ? ec.message() : "no address") + ")");
    ep = found.begin()->endpoint();
  }
  acceptor.open(ep.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(ep, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw input_error(
        fmt::format("inferperf plot: cannot listen on {}:{}: {}", host, port, ec.message()));
  const auto bound = acceptor.local_endpoint();
  const std::string shown = bound.address().is_v6() ? "[" + bound.address().to_string() + "]"
                                                    : bound.address().to_string();
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) {
    boost::system::error_code ignored;
    acceptor.close(ignored);
    io.stop();
  });
  asio::co_spawn(io, accept_loop(acceptor, root), asio::detached);
  on_listening(fmt::format("http://{}:{}/", shown, bound.port()));
  io.run();
  return 0;
}

}  // namespace inferperf::plot
