#include "connection.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace inferperf::mock::detail {

namespace asio = boost::asio;

asio::awaitable<void> Connection::sleep_until(Clock::time_point t) {
  if (t <= Clock::now()) co_return;
  asio::steady_timer timer(executor_);
  timer.expires_at(t);
  boost::system::error_code ec;
  co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

std::optional<std::string_view> header(const Request& req, std::string_view name) {
  const auto it = req.find(name);
  if (it == req.end()) return std::nullopt;
  return std::string_view(it->value().data(), it->value().size());
}

Clock::duration ms_duration(double ms) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
}

std::optional<double> close_delay_ms(const MockOptions& o, const Exchange& x) {
  if (x.close_after) return x.close_after_delay_ms;
  if (o.close_only_after_streams && !x.streamed) return std::nullopt;
  if (o.close_after_response) return 0.0;
  if (o.close_after_response_delay_ms >= 0) return o.close_after_response_delay_ms;
  return std::nullopt;
}

}  // namespace inferperf::mock::detail
