#include "transport/connection_pool.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace inferperf::transport {

namespace asio = boost::asio;

ConnectionPool::ConnectionPool(asio::any_io_executor executor, BaseUrl url)
    : executor_(std::move(executor)), url_(std::move(url)) {}

std::unique_ptr<Socket> ConnectionPool::take_idle() {
  while (!idle_.empty()) {
    auto s = std::move(idle_.back());
    idle_.pop_back();
    if (s->is_open()) return s;
  }
  return nullptr;
}

asio::awaitable<std::unique_ptr<Socket>> ConnectionPool::connect() {
  if (resolved_.empty()) {
    asio::ip::tcp::resolver resolver(executor_);
    auto results =
        co_await resolver.async_resolve(url_.host, std::to_string(url_.port), asio::use_awaitable);
    for (const auto& r : results) resolved_.push_back(r.endpoint());
  }
  auto sock = std::make_unique<Socket>(executor_);
  co_await asio::async_connect(*sock, resolved_, asio::use_awaitable);
  sock->set_option(asio::ip::tcp::no_delay(true));
  co_return sock;
}

void ConnectionPool::give_back(std::unique_ptr<Socket> s) {
  if (s && s->is_open()) idle_.push_back(std::move(s));
}

void ConnectionPool::close_all() {
  for (auto& s : idle_) {
    boost::system::error_code ec;
    s->close(ec);
  }
  idle_.clear();
}

}  // namespace inferperf::transport
