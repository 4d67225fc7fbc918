#include "app/probe/probe_session.hpp"

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <thread>

#include "core/clock.hpp"
#include "core/uuid.hpp"
#include "worker/request_plan.hpp"
#include "worker/response_collector.hpp"

namespace inferperf::app {

namespace asio = boost::asio;

namespace {

constexpr std::size_t kKeptBodyBytes = std::size_t{1} << 20;

// Keeps the status and the body for the probe's own reading (usage fields the endpoint decoders do
// not record, the models list) and hands everything on to the endpoint's collector, if any.
class TeeSink final : public transport::ResponseSink {
 public:
  TeeSink(worker::ResponseCollector* collector, ProbeReply& reply)
      : collector_(collector), reply_(reply) {}
  void on_header_fields(std::string_view fields) override {
    if (collector_) collector_->on_header_fields(fields);
  }
  void on_headers(int status, std::string_view reason, std::string_view content_type,
                  core::MonoNs ts) override {
    reply_.record.status = status;
    if (collector_) collector_->on_headers(status, reason, content_type, ts);
  }
  void on_body(std::string_view bytes, core::MonoNs ts, std::uint32_t read_index) override {
    if (reply_.body.size() < kKeptBodyBytes)
      reply_.body.append(bytes.substr(0, kKeptBodyBytes - reply_.body.size()));
    if (collector_) collector_->on_body(bytes, ts, read_index);
  }
  bool wants_more() const override { return !collector_ || collector_->wants_more(); }

 private:
  worker::ResponseCollector* collector_;
  ProbeReply& reply_;
};

// What one request's coroutine writes; shared with it, so a coroutine abandoned in a resolver that
// never answers (the session then fails) never writes into a reply already returned.
struct InFlight {
  ProbeReply reply;
  bool done = false;
};

std::string error_message_of(const std::string& body) {
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_object()) {
    // OpenAI / vLLM: {"error":{"message"}}; FastAPI: {"detail"}; some: {"message"} or "error".
    if (auto e = j.find("error"); e != j.end()) {
      if (e->is_object() && e->contains("message") && (*e)["message"].is_string())
        return (*e)["message"].get<std::string>();
      if (e->is_string()) return e->get<std::string>();
    }
    for (const char* key : {"detail", "message"})
      if (auto d = j.find(key); d != j.end() && d->is_string()) return d->get<std::string>();
  }
  return body;
}

std::string shortened(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s.size() > 200 ? s.substr(0, 200) + "..." : s;
}

}  // namespace

std::string ProbeReply::problem() const {
  if (!sent) return "not sent: the probe's request budget was spent";
  if (transport_error)
    return fmt::format("{}: {}", transport_error->type.name(), transport_error->message);
  if (!transport::is_success_status(record.status))
    return fmt::format("HTTP {}: {}", record.status, shortened(error_message_of(body)));
  if (record.error)
    return fmt::format("{}: {}", record.error->type.name(), shortened(record.error->message));
  return {};
}

ProbeSession::ProbeSession(ProbeTransport t)
    : t_(std::move(t)), pool_(io_.get_executor(), t_.url, t_.tls, t_.unix_socket) {}

ProbeSession::~ProbeSession() {
  pool_.close_all();
}

ProbeReply ProbeSession::get(const std::string& path) {
  worker::RequestPlan plan;
  plan.headers = t_.headers;
  const worker::Target target{t_.url, path, nullptr};
  const std::string target_path = t_.url.query.empty() ? path : path + "?" + t_.url.query;
  return exchange(nullptr,
                  worker::serialize_get(plan, target, target_path, core::uuid4(), core::uuid4()));
}

ProbeReply ProbeSession::post(const endpoint::Endpoint& endpoint, const std::string& path,
                              const std::string& body, bool streaming) {
  worker::RequestPlan plan;
  plan.headers = t_.headers;
  plan.streaming = streaming;
  plan.multipart = config::requires_form_data(endpoint.info().type);  // image_edit, video
  const worker::Target target{t_.url, t_.url.query.empty() ? path : path + "?" + t_.url.query,
                              nullptr};
  return exchange(&endpoint,
                  worker::serialize_request(plan, target, body, core::uuid4(), core::uuid4()));
}

ProbeReply ProbeSession::exchange(const endpoint::Endpoint* endpoint, const std::string& request) {
  if (failed_ || requests_ >= kProbeMaxRequests) return {};
  ++requests_;
  auto state = std::make_shared<InFlight>();
  state->reply.sent = true;
  auto bytes = std::make_shared<std::string>(request);
  auto clock = std::make_shared<core::SteadyClock>();
  auto cancel = std::make_shared<transport::CancelHandle>();
  auto timer = std::make_shared<asio::steady_timer>(io_);
  const auto limit = std::chrono::milliseconds(static_cast<std::int64_t>(t_.timeout_s * 1000));
  timer->expires_after(limit);
  timer->async_wait([cancel, s = t_.timeout_s](const boost::system::error_code& ec) {
    if (!ec)
      cancel->cancel(core::RequestErrorKind::kTimeout, fmt::format("no answer within {:g} s", s),
                     {});
  });
  asio::co_spawn(
      io_,
      [this, endpoint, state, bytes, clock, cancel, timer]() -> asio::awaitable<void> {
        std::optional<worker::ResponseCollector> collector;
        if (endpoint) collector.emplace(*endpoint, state->reply.record);
        TeeSink sink(collector ? &*collector : nullptr, state->reply);
        transport::ExchangeTimings t;
        transport::ExchangeRequest req{*bytes};
        try {
          state->reply.transport_error =
              co_await transport::http_exchange(pool_, req, sink, *clock, t, *cancel);
        } catch (const std::exception& e) {
          state->reply.transport_error =
              transport::ExchangeError{core::RequestErrorKind::kUnexpected, e.what(), std::nullopt};
        }
        if (collector && !state->reply.transport_error)
          collector->finish(t.end_ns ? t.end_ns : clock->now_ns());
        state->reply.record.connection_reused = t.connection_reused;
        state->reply.record.connection_retries = t.connection_retries;
        state->done = true;
        timer->cancel();
      },
      asio::detached);
  io_.restart();
  // The resolver has no deadline of its own: the whole request gets one second more.
  io_.run_for(limit + std::chrono::seconds(1));
  if (!state->done) {
    failed_ = true;  // the coroutine stays with the io_context; nothing more is sent
    ProbeReply r;
    r.sent = true;
    r.transport_error = transport::ExchangeError{
        core::RequestErrorKind::kTimeout, fmt::format("no answer within {:g} s", t_.timeout_s),
        std::nullopt};
    return r;
  }
  answered_ = answered_ || state->reply.record.status > 0;
  return std::move(state->reply);
}

std::optional<bool> ProbeSession::connection_closed_after(std::chrono::milliseconds wait) {
  if (!answered_ || failed_) return std::nullopt;
  if (pool_.idle_count() == 0) return true;  // the server said Connection: close
  // Nothing runs on the io_context meanwhile: the kept socket is only peeked at afterwards.
  std::this_thread::sleep_for(wait);
  auto s = pool_.take_idle();
  if (!s) return true;
  pool_.give_back(std::move(s));
  return false;
}

}  // namespace inferperf::app
