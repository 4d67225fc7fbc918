#include "transport/connection_pool.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <stdexcept>

namespace inferperf::transport {

namespace asio = boost::asio;

namespace {
// The pool's own clock for idle stamps (never mixed with the records' timestamps).
std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

ConnectionPool::ConnectionPool(asio::any_io_executor executor, BaseUrl url,
                               std::shared_ptr<asio::ssl::context> tls, std::string unix_socket)
    : executor_(std::move(executor)),
      url_(std::move(url)),
      tls_(std::move(tls)),
      unix_socket_(std::move(unix_socket)),
      resolve_done_(executor_) {
  if (url_.scheme == "https" && !tls_) {
    auto made = make_client_tls_context(TransportOptions{});
    if (!made) throw std::runtime_error(made.error().message);
    tls_ = std::move(*made);
  }
  if (url_.scheme != "https") tls_.reset();
}

std::unique_ptr<Socket> ConnectionPool::take_idle(std::int64_t key) {
  if (!reuse_) return nullptr;
  if (key >= 0) {
    auto it = keyed_.find(key);
    if (it == keyed_.end()) return nullptr;
    auto s = std::move(it->second);
    keyed_.erase(it);
    if (!s) return nullptr;
    if (s->idle_usable()) return s;
    note_closed_idle(*s);
    return nullptr;
  }
  while (!idle_.empty()) {
    auto s = std::move(idle_.back());
    idle_.pop_back();
    if (s->idle_usable()) return s;
    note_closed_idle(*s);
  }
  return nullptr;
}

void ConnectionPool::note_closed_idle(const Socket& s) {
  if (s.idle_after_stream_within(steady_now_ns(), ServerBehaviour::kCloseAfterStreamWindowNs))
    behaviour_->saw_close_after_stream();
}

void ConnectionPool::note_reuse_failure(const Socket& s) {
  note_closed_idle(s);
}

asio::awaitable<std::unique_ptr<Socket>> ConnectionPool::connect() {
  if (!unix_socket_.empty()) {
    asio::local::stream_protocol::socket sock(executor_);
    co_await sock.async_connect(asio::local::stream_protocol::endpoint(unix_socket_),
                                asio::use_awaitable);
    if (tls_) co_return std::make_unique<Socket>(std::move(sock), *tls_, url_.host);
    co_return std::make_unique<Socket>(std::move(sock));
  }
  // One resolution per pool. Every request that starts before it finishes waits for it: when
  // each one resolved and appended its own results, N simultaneous first requests left N copies
  // of the address list, and every connect copied the whole list (memory quadratic in N: 7.6 GB
  // at 19,500 streams, docs/benchmarks.md).
  while (resolved_.empty()) {
    if (resolving_) {
      boost::system::error_code ec;
      co_await resolve_done_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;  // resolved, or failed: then this request tries once itself
    }
    resolving_ = true;
    resolve_done_.expires_at(asio::steady_timer::time_point::max());
    std::vector<asio::ip::tcp::endpoint> endpoints;
    try {
      asio::ip::tcp::resolver resolver(executor_);
      auto results = co_await resolver.async_resolve(url_.host, std::to_string(url_.port),
                                                     asio::use_awaitable);
      for (const auto& r : results) endpoints.push_back(r.endpoint());
    } catch (...) {
      resolving_ = false;
      resolve_done_.cancel();
      throw;
    }
    resolving_ = false;
    resolve_done_.cancel();
    order_ipv4_first(endpoints);
    if (endpoints.empty()) throw boost::system::system_error(asio::error::host_not_found);
    resolved_ = std::move(endpoints);
  }
  asio::ip::tcp::socket sock(executor_);
  if (local_addresses_.empty()) {
    co_await asio::async_connect(sock, resolved_, asio::use_awaitable);
  } else {
    sock = co_await connect_from_local();
  }
  sock.set_option(asio::ip::tcp::no_delay(true));
  if (tls_) co_return std::make_unique<Socket>(std::move(sock), *tls_, url_.host);
  co_return std::make_unique<Socket>(std::move(sock));
}

// The source address is bound before connect(): with IP_BIND_ADDRESS_NO_PORT the kernel leaves the
// port open at bind() and picks it at connect(), when the whole 4-tuple is known, so each address
// has a full ephemeral range towards each server address and port (a bind() with port 0 alone
// would take a port for good and share one range across all destinations). The round robin is
// per pool, i.e. per worker thread, started at the worker's id (set_local_addresses): no shared
// counter to contend on, and the workers do not all begin on the first address; each address
// gets its share to within one connection per worker.
asio::awaitable<asio::ip::tcp::socket> ConnectionPool::connect_from_local() {
  const std::string& text = local_addresses_[next_local_];
  next_local_ = (next_local_ + 1) % local_addresses_.size();
  boost::system::error_code ec;
  const asio::ip::address local = asio::ip::make_address(text, ec);
  if (ec) throw LocalAddressError(ec, "--local-address " + text + ": not an IP address");
  asio::ip::tcp::socket sock(executor_);
  boost::system::error_code last;
  bool family_found = false;
  for (const auto& ep : resolved_) {
    if (ep.address().is_v4() != local.is_v4()) continue;  // an IPv4 source cannot reach IPv6
    family_found = true;
    boost::system::error_code ignored;
    sock.close(ignored);
    sock.open(ep.protocol(), ec);
    if (ec) throw boost::system::system_error(ec);  // out of file descriptors: as without
#ifdef IP_BIND_ADDRESS_NO_PORT
    // Best effort: without it (kernels before 4.2) bind() takes the port, which still works.
    const int one = 1;
    ::setsockopt(sock.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
#endif
    sock.bind(asio::ip::tcp::endpoint(local, 0), ec);
    if (ec) throw LocalAddressError(ec, ec.message() + " (bind to --local-address " + text + ")");
    co_await sock.async_connect(ep, asio::redirect_error(asio::use_awaitable, ec));
    if (!ec) co_return sock;
    last = ec;
  }
  if (!family_found) {
    throw LocalAddressError(asio::error::address_family_not_supported,
                            "--local-address " + text + ": " + url_.host + " has no " +
                                (local.is_v4() ? "IPv4" : "IPv6") + " address");
  }
  throw LocalAddressError(last, last.message() + " (from --local-address " + text + ")");
}

void ConnectionPool::give_back(std::unique_ptr<Socket> s, std::int64_t key, bool streamed) {
  if (!s || !s->is_open()) return;
  if (!reuse_ || (streamed && behaviour_->closes_after_stream())) {
    boost::system::error_code ec;
    s->close(ec);
    return;
  }
  s->mark_idle(streamed, steady_now_ns());
  if (key >= 0) {
    keyed_[key] = std::move(s);
  } else {
    idle_.push_back(std::move(s));
  }
}

void ConnectionPool::drop(std::int64_t key) {
  auto it = keyed_.find(key);
  if (it == keyed_.end()) return;
  boost::system::error_code ec;
  if (it->second) it->second->close(ec);
  keyed_.erase(it);
}

void ConnectionPool::close_all() {
  for (auto& s : idle_) {
    boost::system::error_code ec;
    s->close(ec);
  }
  idle_.clear();
  for (auto& [key, s] : keyed_) {
    boost::system::error_code ec;
    if (s) s->close(ec);
  }
  keyed_.clear();
}

}  // namespace inferperf::transport
