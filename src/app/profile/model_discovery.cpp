#include "app/profile/model_discovery.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <optional>

#include "core/clock.hpp"
#include "core/version.hpp"
#include "transport/connection_pool.hpp"
#include "transport/http_exchange.hpp"

namespace inferperf::app {

namespace asio = boost::asio;

namespace {

class BodySink final : public transport::ResponseSink {
 public:
  void on_headers(int status, std::string_view, std::string_view, core::MonoNs) override {
    status_ = status;
  }
  void on_body(std::string_view bytes, core::MonoNs, std::uint32_t) override {
    body_.append(bytes);
  }
  bool wants_more() const override { return body_.size() < (64u << 20); }
  int status() const { return status_; }
  const std::string& body() const { return body_; }

 private:
  int status_ = 0;
  std::string body_;
};

}  // namespace

core::Result<std::string> discover_model(const transport::BaseUrl& url, int timeout_s,
                                         std::shared_ptr<asio::ssl::context> tls,
                                         const std::string& unix_socket,
                                         const transport::HeaderList& credentials) {
  auto fail = [&](const std::string& why) {
    return core::Error{core::ErrorKind::kConfig,
                       "no --model given and the model list could not be read from " +
                           url.to_string() + "/v1/models" +
                           (unix_socket.empty() ? "" : " (via " + unix_socket + ")") + ": " + why};
  };
  try {
    const std::string target =
        url.base_path.ends_with("/v1") ? url.base_path + "/models" : url.base_path + "/v1/models";
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: " + url.host_header() +
                          "\r\nUser-Agent: inferperf/" + kVersion +
                          "\r\nAccept: application/json\r\nConnection: close\r\n";
    for (const auto& [name, value] : credentials) request += name + ": " + value + "\r\n";
    request += "\r\n";
    asio::io_context io;
    transport::ConnectionPool pool(io.get_executor(), url, std::move(tls), unix_socket);
    pool.set_reuse(false);
    core::SteadyClock clock;
    BodySink sink;
    transport::ExchangeTimings timings;
    transport::CancelHandle cancel;
    std::optional<transport::ExchangeError> error;
    bool done = false;
    asio::steady_timer timer(io, std::chrono::seconds(timeout_s));
    timer.async_wait([&](const boost::system::error_code& ec) {
      if (!ec)
        cancel.cancel(core::RequestErrorKind::kTimeout,
                      "no answer within " + std::to_string(timeout_s) + " s", std::nullopt);
    });
    transport::ExchangeRequest req{request};
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          error = co_await transport::http_exchange(pool, req, sink, clock, timings, cancel);
          done = true;
          timer.cancel();
        },
        [&](std::exception_ptr e) {
          if (!e) return;
          try {
            std::rethrow_exception(e);
          } catch (const std::exception& x) {
            error = transport::ExchangeError{core::RequestErrorKind::kUnexpected, x.what(),
                                             std::nullopt};
          }
          done = true;
          timer.cancel();
        });
    // The resolver has no deadline of its own: the whole look-up gets one second more.
    io.run_for(std::chrono::seconds(timeout_s + 1));
    pool.close_all();
    if (!done) return fail("no answer within " + std::to_string(timeout_s) + " s");
    if (error) return fail(std::string(error->type.name()) + ": " + error->message);
    if (sink.status() != 200) return fail("HTTP " + std::to_string(sink.status()));
    auto j = nlohmann::json::parse(sink.body(), nullptr, false);
    if (j.is_discarded() || !j.contains("data") || !j["data"].is_array() || j["data"].empty() ||
        !j["data"][0].contains("id") || !j["data"][0]["id"].is_string()) {
      return fail("response has no data[0].id");
    }
    return j["data"][0]["id"].get<std::string>();
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace inferperf::app
