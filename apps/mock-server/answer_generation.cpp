// TGI, RAG, Responses, Messages: the chat generator's plan and timing in other formats. RAG is
// answered in the OpenAI formats (answer_openai_plan).
#include <fmt/format.h>

#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "answers.hpp"
#include "core/uuid.hpp"
#include "http_text.hpp"
#include "routes.hpp"
#include "token_stream.hpp"

namespace inferperf::mock::detail {

namespace asio = boost::asio;

namespace {

// Parses the request body of `route` into `g`.
std::optional<RouteError> parse_generation_route(const Request& req, Route route,
                                                 GenerationRequest& g) {
  try {
    switch (route) {
      case Route::kTgi:
      case Route::kTgiStream: {
        auto err = parse_tgi_request(req.body(), g);
        g.stream = route == Route::kTgiStream;
        return err;
      }
      case Route::kRag: {
        auto err = parse_rag_request(req.body(), g);
        if (auto acc = header(req, "Accept");
            acc && acc->find("text/event-stream") != std::string_view::npos)
          g.stream = true;
        return err;
      }
      case Route::kResponses:
        return parse_responses_request(req.body(), g);
      default:
        return parse_messages_request(req.body(), header(req, "anthropic-version").has_value(), g);
    }
  } catch (const std::exception& e) {
    return route_error(400, std::string("invalid request field: ") + e.what());
  }
}

// The whole (non-streaming) body of `route`.
std::string generation_body(Route route, const GenerationRequest& g, const GenerationPlan& plan,
                            const std::string& hex, std::time_t created) {
  if (route == Route::kTgi)
    return fmt::format(R"({{"generated_text":"{}"}})", json_escape(joined(plan.output)));
  if (route == Route::kResponses)
    return ResponsesStream("resp_" + hex, g.model, created, plan).response_json("completed", true);
  return messages_whole_json("msg_" + hex, g.model, plan);
}

// How `route` streams; the Responses and Messages builders are kept in `rs` and `ms`, which
// must outlive the stream.
StreamSpec generation_stream_spec(Route route, const GenerationRequest& g,
                                  const GenerationPlan& plan, const std::string& hex,
                                  std::time_t created, std::optional<ResponsesStream>& rs,
                                  std::optional<MessagesStream>& ms) {
  StreamSpec spec;
  if (route == Route::kTgiStream) {
    const std::string full = joined(plan.output);
    const std::string finish = tgi_finish_reason(plan.finish_reason);
    spec.event = [&plan, full, finish](const TokenEvent& e) {
      return "data:" + tgi_stream_event(e.index, e.text, e.last, full, finish, plan.output.size()) +
             "\n\n";
    };
    spec.tail = [] { return std::vector<std::string>{}; };
    spec.error_event = {
        "data:{\"error\":\"mock fault error-event\",\"error_type\":\"generation\"}\n\n"};
  } else if (route == Route::kResponses) {
    rs.emplace("resp_" + hex, g.model, created, plan);
    spec.head = rs->head();
    spec.event = [&rs](const TokenEvent& e) { return rs->delta(e.reasoning, e.text); };
    spec.tail = [&rs] { return std::vector<std::string>{rs->tail()}; };
    spec.error_event = {
        "event: error\ndata: {\"type\":\"error\",\"code\":\"mock_fault\",\"message\":\"mock "
        "fault error-event\",\"param\":null}\n\n"};
  } else {
    ms.emplace("msg_" + hex, g.model, plan);
    spec.head = ms->head();
    spec.event = [&ms](const TokenEvent& e) { return ms->delta(e.reasoning, e.text); };
    spec.tail = [&ms] { return std::vector<std::string>{ms->tail()}; };
    spec.error_event = {
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":"
        "\"mock fault error-event\"}}\n\n"};
  }
  return spec;
}

}  // namespace

asio::awaitable<bool> answer_generation(Exchange& x, Route route) {
  const auto start = Clock::now();
  x.created = std::time(nullptr);
  const Fault fault = request_fault(x);
  const bool chat_like = route != Route::kTgi && route != Route::kTgiStream;
  const std::function<void()> on_reject = [&] {
    x.server.served.rejected(chat_like, route == Route::kTgiStream);
  };
  if (auto done = co_await fault_gate(x, fault, start, on_reject)) co_return *done;
  GenerationRequest g;
  if (const auto err = parse_generation_route(x.req, route, g)) {
    x.server.served.rejected(chat_like, false);
    co_return co_await fail_status(x, err->status, err->body);
  }
  if (route == Route::kRag) co_return co_await answer_openai_plan(x, g, fault, start);

  GenerationPlan plan = planned(x.server, g);
  if (fault.kind == "big-event" && !plan.output.empty())
    plan.output.front() = std::string(fault.big_bytes, 'x');
  const auto n = static_cast<std::int64_t>(plan.output.size() + plan.reasoning.size());
  x.server.counters.output_tokens.fetch_add(n);
  RequestTrace trace(x.preflight ? x.server.unmeasured : x.server.served, chat_like, g.stream,
                     static_cast<std::int64_t>(plan.prompt_tokens.size()),
                     static_cast<std::int64_t>(x.req.body().size()), start);
  Timing tm = timing_from(x.server.options, start);
  const Slot slot =
      co_await generation_slot(x, start, static_cast<std::int64_t>(plan.prompt_tokens.size()), tm);
  std::string hex = core::uuid4();
  std::erase(hex, '-');

  if (!g.stream) {
    co_await x.conn.sleep_until(tm.first);
    const auto first_at = Clock::now();
    co_await x.conn.sleep_until(tm.first + tm.gap() * n);
    const auto last_at = Clock::now();
    const std::string body = generation_body(route, g, plan, hex, x.created);
    trace.whole(n, static_cast<std::int64_t>(body.size()), first_at, last_at);
    trace.complete(plan.finish_reason);
    co_await x.conn.send(plain_response(200, "application/json", body, x.keep));
    co_return x.keep;
  }
  std::optional<ResponsesStream> rs;
  std::optional<MessagesStream> ms;
  const StreamSpec spec = generation_stream_spec(route, g, plan, hex, x.created, rs, ms);
  co_return co_await stream_tokens(x, plan, spec, fault, tm, trace);
}

}  // namespace inferperf::mock::detail
