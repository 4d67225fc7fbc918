#include "app/preflight.hpp"

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/clock.hpp"
#include "core/uuid.hpp"
#include "dataset/conversation.hpp"
#include "worker/response_collector.hpp"

namespace inferperf::app {

namespace {

namespace asio = boost::asio;

// Small enough to answer quickly; the smallest limit every API accepts (Responses: 16).
constexpr int kPreflightMaxTokens = 16;
// One attempt's limit unless --wait-for-model-timeout or --request-timeout-seconds say otherwise.
constexpr double kAttemptTimeoutS = 60.0;

// The first turn's shape (endpoint fields, media, the row's extra keys) with a short text of its
// own: the preflight must not prime the server's prefix cache with a prompt or a shared prefix
// (system prompt, user context, tools, trace messages) that the run then measures.
dataset::Turn preflight_turn(const dataset::Dataset& ds, const dataset::Conversation& conv) {
  dataset::Turn t = dataset::materialize(ds, conv.turns.front());
  if (t.payload) return t;  // a verbatim body: its prompt cannot be told apart from the rest
  t.text = fmt::format("inferperf preflight {}: reply with OK.", core::uuid4());
  t.more_texts.clear();
  t.messages = nullptr;
  t.tools = nullptr;
  t.segments.clear();
  t.synthesized.reset();
  for (auto& p : t.passages) p = "preflight passage " + core::uuid4();
  return t;
}

std::string preflight_body(const worker::RequestPlan& plan) {
  const dataset::Dataset& ds = *plan.dataset;
  endpoint::BodyOptions options = plan.body_options;
  options.system_message = {};  // no system prompt or user context: shared prefixes
  options.user_context = {};
  const std::vector<dataset::Turn> history = {preflight_turn(ds, ds.conversations.front())};
  nlohmann::ordered_json body = endpoint::build_request_body(*plan.endpoint, history, options);
  // A short answer proves as much as a long one. Not with extended thinking, whose budget must
  // stay below the output limit.
  if (body.is_object() && !body.contains("thinking")) {
    endpoint::set_output_limit(body, plan.endpoint->info().type,
                               plan.body_options.use_legacy_max_tokens, kPreflightMaxTokens, true);
  }
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

struct Attempt {
  std::optional<transport::ExchangeError> transport_error;
  records::RequestRecord record;
};

Attempt attempt_once(const worker::RequestPlan& plan, const std::string& request,
                     double timeout_s) {
  Attempt a;
  asio::io_context io;
  core::SteadyClock clock;
  transport::ConnectionPool pool(io.get_executor(), plan.targets.front().url, plan.tls_context,
                                 plan.transport.unix_socket);
  // The check goes out the way the run will: from the first --local-address, when given.
  pool.set_local_addresses(plan.transport.local_addresses);
  worker::ResponseCollector collector(*plan.endpoint, a.record);
  transport::CancelHandle cancel;
  asio::steady_timer timeout(io);
  timeout.expires_after(std::chrono::milliseconds(static_cast<std::int64_t>(timeout_s * 1000)));
  timeout.async_wait([&](const boost::system::error_code& ec) {
    if (!ec) cancel.cancel("TimeoutError", fmt::format("no answer within {:.0f} s", timeout_s), {});
  });
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        transport::ExchangeTimings t;
        transport::ExchangeRequest exchange{request};
        a.transport_error =
            co_await transport::http_exchange(pool, exchange, collector, clock, t, cancel);
        timeout.cancel();
        if (!a.transport_error) collector.finish(t.end_ns ? t.end_ns : clock.now_ns());
        pool.close_all();
      },
      asio::detached);
  io.run();
  return a;
}

std::string snippet(const std::string& s) {
  return s.size() > 300 ? s.substr(0, 300) + "..." : s;
}

}  // namespace

PreflightResult run_preflight(const worker::RequestPlan& plan, double wait_s) {
  PreflightResult r;
  const worker::Target& target = plan.targets.front();
  const std::string where = target.url.to_string() + target.path.substr(0, target.path.find('?'));
  std::string body;
  try {
    body = preflight_body(plan);
  } catch (const std::exception& e) {
    r.message = std::string("cannot build the first request: ") + e.what();
    return r;
  }
  // Marked, so servers and proxies that care can tell it from the benchmark's requests (the
  // bundled mock neither counts nor faults it).
  worker::RequestPlan marked;  // headers only: the plan's prebuilt bodies can be large
  marked.headers = plan.headers;
  marked.streaming = plan.streaming;
  marked.headers.emplace_back("X-Inferperf-Preflight", "1");
  const std::string request =
      worker::serialize_request(marked, target, body, core::uuid4(), core::uuid4());
  wait_s = std::clamp(wait_s, 0.0, 1e7);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<std::int64_t>(wait_s * 1000));
  for (;;) {
    ++r.attempts;
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    Attempt a = attempt_once(plan, request,
                             std::min(plan.request_timeout_s, std::max(kAttemptTimeoutS, left)));
    const bool waiting = std::chrono::steady_clock::now() < deadline;
    std::string failure;
    bool retry = false;
    if (a.transport_error && a.record.status == 200) {
      // It answered and is still generating (or cut the stream): the server is there.
      r.ok = true;
      r.message = fmt::format("preflight request to {} answered but did not finish: {}: {}", where,
                              a.transport_error->type, a.transport_error->message);
      return r;
    }
    if (a.transport_error) {
      failure = fmt::format("cannot reach {}: {}: {}", where, a.transport_error->type,
                            a.transport_error->message);
      retry = a.transport_error->type != "TimeoutError";
    } else if (a.record.status == 200) {
      if (a.record.error && a.record.error->type == "ResponseParseError") {
        r.message = fmt::format(
            "{} answered, but not as --endpoint-type {} expects: {} (check --endpoint-type and "
            "--endpoint)",
            where, plan.endpoint->info().name, snippet(a.record.error->message));
        return r;
      }
      r.ok = true;
      return r;
    } else {
      const auto& e = a.record.error;
      const std::string detail = e ? snippet(e->message) : "";
      failure = fmt::format("{} answered HTTP {} {}: {}", where, a.record.status, e ? e->type : "",
                            detail);
      retry = a.record.status == 404 || a.record.status == 503;
      const bool busy = a.record.status == 408 || a.record.status == 429;
      if ((a.record.status >= 500 && a.record.status != 503) || busy) {
        // The server is there (erring or busy); its errors are measured by the run itself.
        r.ok = true;
        r.message = "preflight request " + failure;
        return r;
      }
    }
    if (!retry || !waiting) {
      r.message = failure;
      if (retry && wait_s <= 0) r.message += " (--wait-for-model-timeout S keeps trying)";
      return r;
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace inferperf::app
