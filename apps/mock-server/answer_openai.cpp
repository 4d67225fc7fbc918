// OpenAI chat and completions: the whole body or the SSE stream, usage and llama.cpp-style timings.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "answers.hpp"
#include "core/uuid.hpp"
#include "http_text.hpp"
#include "media_check.hpp"
#include "routes.hpp"
#include "token_stream.hpp"

namespace inferperf::mock::detail {

namespace asio = boost::asio;

namespace {

// X-Mock-Timings: 1/true/yes/on or 0/false/no/off; anything else leaves the flag's choice.
std::optional<bool> parse_switch(std::string_view v) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  return std::nullopt;
}

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// `extra`: more top-level members, written as ',"key":value...'.
std::string chunk_json(const GenerationRequest& g, std::time_t created, const std::string& id,
                       std::string_view delta_or_text, std::string_view finish,
                       std::string_view extra = "") {
  const std::string fr = finish.empty() ? "null" : fmt::format("\"{}\"", finish);
  if (g.chat) {
    return fmt::format(
        R"({{"id":"{}","object":"chat.completion.chunk","created":{},"model":"{}","choices":[{{"index":0,"delta":{},"finish_reason":{}}}]{}}})",
        id, created, json_escape(g.model), delta_or_text, fr, extra);
  }
  return fmt::format(
      R"({{"id":"{}","object":"text_completion","created":{},"model":"{}","choices":[{{"index":0,"text":"{}","finish_reason":{}}}]{}}})",
      id, created, json_escape(g.model), json_escape(delta_or_text), fr, extra);
}

// ',"timings":{...}' for a request that asked for timings, else "".
std::string timings_member(bool wanted, const GenerationPlan& p, Clock::time_point start,
                           Clock::time_point first, Clock::time_point last) {
  if (!wanted) return "";
  Timings t;
  t.cache_n = static_cast<std::int64_t>(p.cached_tokens);
  t.prompt_n = static_cast<std::int64_t>(p.prompt_tokens.size());
  t.prompt_ms = ms_between(start, first);
  t.predicted_n = static_cast<std::int64_t>(p.output.size() + p.reasoning.size());
  t.predicted_ms = ms_between(first, last);
  return R"(,"timings":)" + timings_json(t);
}

std::string usage_json(const GenerationPlan& p) {
  const std::size_t completion = p.output.size() + p.reasoning.size();
  std::string details =
      p.reasoning.empty() ? ""
                          : fmt::format(R"(,"completion_tokens_details":{{"reasoning_tokens":{}}})",
                                        p.reasoning.size());
  // As vLLM with prefix caching: the cached share of the prompt, only when there is one.
  if (p.cached_tokens > 0)
    details += fmt::format(R"(,"prompt_tokens_details":{{"cached_tokens":{}}})", p.cached_tokens);
  return fmt::format(R"({{"prompt_tokens":{},"completion_tokens":{},"total_tokens":{}{}}})",
                     p.prompt_tokens.size(), completion, p.prompt_tokens.size() + completion,
                     details);
}

// Whether a body the mock turns away asked for streaming (for the frontend's request counts).
bool wants_stream(const Request& req, bool chat) {
  GenerationRequest g;
  return !parse_generation_request(req.body(), chat, g) && g.stream;
}

// The whole chat.completion or text_completion body.
std::string whole_body(const GenerationRequest& g, const GenerationPlan& plan,
                       const std::string& id, std::time_t created, const std::string& timings) {
  std::string text, reasoning;
  for (const auto& t : plan.output) text += t;
  for (const auto& t : plan.reasoning) reasoning += t;
  if (g.chat) {
    std::string rc = reasoning.empty()
                         ? ""
                         : fmt::format(R"(,"reasoning_content":"{}")", json_escape(reasoning));
    return fmt::format(
        R"({{"id":"{}","object":"chat.completion","created":{},"model":"{}","choices":[{{"index":0,"message":{{"role":"assistant","content":"{}"{}}},"finish_reason":"{}"}}],"usage":{}{}}})",
        id, created, json_escape(g.model), json_escape(text), rc, plan.finish_reason,
        usage_json(plan), timings);
  }
  return fmt::format(
      R"({{"id":"{}","object":"text_completion","created":{},"model":"{}","choices":[{{"index":0,"text":"{}","finish_reason":"{}"}}],"usage":{}{}}})",
      id, created, json_escape(g.model), json_escape(text), plan.finish_reason, usage_json(plan),
      timings);
}

}  // namespace

GenerationPlan planned(ServerState& server, const GenerationRequest& g) {
  GenerationPlan plan = plan_generation(g, server.tokenizer.get());
  plan.cached_tokens = server.prefix_cache.lookup_and_insert(plan.prompt_tokens);
  return plan;
}

asio::awaitable<bool> answer_openai(Exchange& x, bool chat) {
  const auto start = Clock::now();
  x.created = std::time(nullptr);
  const Fault fault = request_fault(x);
  const std::function<void()> on_reject = [&] {
    x.server.served.rejected(chat, wants_stream(x.req, chat));
  };
  if (auto done = co_await fault_gate(x, fault, start, on_reject)) co_return *done;

  GenerationRequest g;
  if (auto err = parse_generation_request(x.req.body(), chat, g)) {
    x.server.served.rejected(chat, false);
    co_return co_await fail_status(
        x, 400,
        fmt::format(R"({{"error":{{"message":"{}","type":"BadRequestError","code":400}}}})",
                    json_escape(*err)));
  }
  // The images, audio and video a chat request carries, decoded and checked (media_check.hpp);
  // inferperf's preflight is checked but not counted.
  if (chat) {
    if (auto bad = screen_chat_media(x.req.body(), x.preflight ? nullptr : &x.server.media,
                                     x.preflight ? nullptr : x.server.media_log.get(),
                                     header(x.req, "X-Request-ID"))) {
      (x.preflight ? x.server.unmeasured : x.server.served).rejected(chat, g.stream);
      co_return co_await fail_status(x, 400, route_error(400, *bad).body);
    }
  }
  if (g.warmup_marked && !x.preflight) x.server.counters.warmup_marked.fetch_add(1);
  co_return co_await answer_openai_plan(x, g, fault, start);
}

asio::awaitable<bool> answer_whole(Exchange& x, const GenerationRequest& g,
                                   const GenerationPlan& plan, const std::string& id,
                                   const Fault& fault, const Timing& tm, RequestTrace& trace) {
  const auto n = static_cast<std::int64_t>(plan.output.size() + plan.reasoning.size());
  co_await x.conn.sleep_until(tm.first);
  const auto first_at = Clock::now();
  co_await x.conn.sleep_until(tm.first + tm.gap() * n);
  const auto last_at = Clock::now();
  const std::string timings = timings_member(tm.timings, plan, tm.start, first_at, last_at);
  const std::string body = fault.kind == "malformed" ? R"({"id":"broken", "choices": [)"
                                                     : whole_body(g, plan, id, x.created, timings);
  if (fault.kind == "truncate" || fault.kind == "truncate-reset") {
    x.server.counters.errors_injected.fetch_add(1);
    std::string full = plain_response(200, "application/json", body, x.keep);
    co_await x.conn.send(full.substr(0, full.size() - body.size() / 2));
    x.conn.close(fault.kind == "truncate-reset");
    co_return false;
  }
  if (fault.kind == "malformed") {
    x.server.counters.errors_injected.fetch_add(1);
  } else {
    // Counted before the write, so a client that has the answer also sees it in the metrics.
    trace.whole(n, static_cast<std::int64_t>(body.size()), first_at, last_at);
    trace.complete(plan.finish_reason);
  }
  co_await x.conn.send(plain_response(200, "application/json", body, x.keep));
  co_return x.keep;
}

asio::awaitable<bool> answer_stream(Exchange& x, const GenerationRequest& g,
                                    const GenerationPlan& plan, const std::string& id,
                                    const Fault& fault, const Timing& tm, RequestTrace& trace) {
  const std::time_t created = x.created;
  StreamSpec spec;
  if (g.chat) {
    // Role-only first chunk right away, as vLLM sends it; it carries no content.
    spec.head =
        "data: " + chunk_json(g, created, id, R"({"role":"assistant","content":""})", "") + "\n\n";
  }
  spec.event = [&](const TokenEvent& e) {
    // The last chunk (with finish_reason) carries the timings, as llama.cpp's server sends them.
    const std::string extra =
        e.last ? timings_member(tm.timings, plan, tm.start, e.first_at, e.released) : "";
    const std::string_view finish = e.last ? std::string_view(plan.finish_reason) : "";
    if (!g.chat) return "data: " + chunk_json(g, created, id, e.text, finish, extra) + "\n\n";
    const std::string delta =
        e.reasoning ? fmt::format(R"({{"reasoning_content":"{}"}})", json_escape(e.text))
                    : fmt::format(R"({{"content":"{}"}})", json_escape(e.text));
    return "data: " + chunk_json(g, created, id, delta, finish, extra) + "\n\n";
  };
  spec.tail = [&] {
    std::vector<std::string> out;
    if (g.include_usage) {
      out.push_back(
          "data: " +
          fmt::format(
              R"({{"id":"{}","object":"{}","created":{},"model":"{}","choices":[],"usage":{}}})",
              id, g.chat ? "chat.completion.chunk" : "text_completion", created,
              json_escape(g.model), usage_json(plan)) +
          "\n\n");
    }
    out.emplace_back("data: [DONE]\n\n");
    return out;
  };
  spec.error_event = {
      ": mock fault error-event\nevent: error\ndata: {\"error\":{\"message\":\"mock fault "
      "error-event\"}}\n\n",
      "data: [DONE]\n\n"};
  spec.malformed = "data: {\"object\": \"chat.completion.chunk\", \"choices\": [\n\n";
  co_return co_await stream_tokens(x, plan, spec, fault, tm, trace);
}

asio::awaitable<bool> answer_openai_plan(Exchange& x, const GenerationRequest& g,
                                         const Fault& fault, Clock::time_point start) {
  const bool chat = g.chat;
  const auto& o = x.server.options;
  GenerationPlan plan = planned(x.server, g);
  if (fault.kind == "big-event" && !plan.output.empty())
    plan.output.front() = std::string(fault.big_bytes, 'x');
  const std::string id = (chat ? "chatcmpl-" : "cmpl-") + core::uuid4();
  x.server.counters.output_tokens.fetch_add(
      static_cast<std::int64_t>(plan.output.size() + plan.reasoning.size()));

  bool timings = o.timings;
  if (auto it = x.req.find("X-Mock-Timings"); it != x.req.end()) {
    const auto v = it->value();
    timings = parse_switch(std::string_view(v.data(), v.size())).value_or(timings);
  }
  RequestTrace trace(x.preflight ? x.server.unmeasured : x.server.served, chat, g.stream,
                     static_cast<std::int64_t>(plan.prompt_tokens.size()),
                     static_cast<std::int64_t>(x.req.body().size()), start);
  Timing timing = timing_from(o, start);
  timing.timings = timings;
  const Slot slot = co_await generation_slot(
      x, start, static_cast<std::int64_t>(plan.prompt_tokens.size()), timing);
  if (!g.stream) co_return co_await answer_whole(x, g, plan, id, fault, timing, trace);
  co_return co_await answer_stream(x, g, plan, id, fault, timing, trace);
}

}  // namespace inferperf::mock::detail
