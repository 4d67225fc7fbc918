#include "app/profile/preflight.hpp"

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string_view>
#include <thread>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/uuid.hpp"
#include "dataset/conversation.hpp"
#include "transport/http_exchange.hpp"
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
  AnswerHead head;
};

std::string to_lower_ascii(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The value of header `name` (lower case) in "name: value\n" lines.
std::string response_header_value(std::string_view fields, std::string_view name) {
  while (!fields.empty()) {
    const std::size_t nl = fields.find('\n');
    std::string_view line = fields.substr(0, nl);
    fields.remove_prefix(nl == std::string_view::npos ? fields.size() : nl + 1);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || to_lower_ascii(line.substr(0, colon)) != name) continue;
    std::string_view v = line.substr(colon + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == '\r' || v.back() == ' ')) v.remove_suffix(1);
    return std::string(v);
  }
  return {};
}

// The collector measures as the run would; this also keeps what names the server that answered.
class PreflightSink final : public transport::ResponseSink {
 public:
  PreflightSink(worker::ResponseCollector& inner, AnswerHead& head) : inner_(inner), head_(head) {}
  void on_header_fields(std::string_view fields) override {
    head_.server = response_header_value(fields, "server");
    inner_.on_header_fields(fields);
  }
  void on_headers(int status, std::string_view reason, std::string_view content_type,
                  core::MonoNs ts) override {
    head_.status = status;
    head_.reason = std::string(reason);
    head_.content_type = std::string(content_type);
    inner_.on_headers(status, reason, content_type, ts);
  }
  void on_body(std::string_view bytes, core::MonoNs ts, std::uint32_t read_index) override {
    head_.body_bytes += bytes.size();
    if (head_.body_start.size() < kAnswerBodyKept)
      head_.body_start.append(bytes.substr(0, kAnswerBodyKept - head_.body_start.size()));
    inner_.on_body(bytes, ts, read_index);
  }
  bool wants_more() const override { return inner_.wants_more(); }

 private:
  worker::ResponseCollector& inner_;
  AnswerHead& head_;
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
  PreflightSink sink(collector, a.head);
  transport::CancelHandle cancel;
  asio::steady_timer timeout(io);
  timeout.expires_after(std::chrono::milliseconds(static_cast<std::int64_t>(timeout_s * 1000)));
  timeout.async_wait([&](const boost::system::error_code& ec) {
    if (!ec)
      cancel.cancel(core::RequestErrorKind::kTimeout,
                    fmt::format("no answer within {:.0f} s", timeout_s), {});
  });
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        transport::ExchangeTimings t;
        transport::ExchangeRequest exchange{request};
        a.transport_error =
            co_await transport::http_exchange(pool, exchange, sink, clock, t, cancel);
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

bool is_html_answer(const AnswerHead& head) {
  const std::string type = to_lower_ascii(head.content_type);
  if (type.starts_with("text/html") || type.starts_with("application/xhtml")) return true;
  const std::size_t first = head.body_start.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return false;
  const std::string start = to_lower_ascii(std::string_view(head.body_start).substr(first, 9));
  return start.starts_with("<!doctype") || start.starts_with("<html");
}

bool answered_like_web_server(const AnswerHead& head) {
  if (head.status == 405 || head.status == 501) return true;
  const bool gateway = head.status >= 502 && head.status <= 504;
  return head.status != 0 && !gateway && is_html_answer(head);
}

std::string describe_answer(const AnswerHead& head) {
  std::string out = fmt::format("HTTP {}", head.status);
  if (!head.reason.empty()) out += " " + core::excerpt(head.reason, 80);
  if (!head.server.empty()) out += ", Server: " + core::excerpt(head.server, 80);
  if (!head.content_type.empty()) out += ", Content-Type: " + core::excerpt(head.content_type, 80);
  const std::size_t first = head.body_start.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return out;
  // At most 200 bytes, cut at a character boundary; the size is the whole body's, not the part
  // kept.
  std::string_view body = std::string_view(head.body_start).substr(first);
  std::size_t cut = std::min<std::size_t>(body.size(), 200);
  while (cut < body.size() && cut > 0 && (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80)
    --cut;
  out += ", body: " + core::excerpt(body.substr(0, cut), 200);
  if (first + cut < head.body_bytes) out += fmt::format("... ({} bytes)", head.body_bytes);
  return out;
}

namespace {

// What one attempt says: the server is there (pass, maybe with a warning), it is not the right
// server (fail), or it may still come up (retry while --wait-for-model-timeout lasts, then fail).
struct Verdict {
  enum Kind { kPass, kFail, kRetry } kind = kFail;
  std::string message;
};

Verdict judge(const Attempt& a, const std::string& where, const worker::RequestPlan& plan) {
  if (answered_like_web_server(a.head)) {
    // A static file server or a portal: no wait makes it an LLM server.
    return {Verdict::kFail,
            fmt::format("{} answered like a web server, not an LLM API: {} (check --url and "
                        "--endpoint; is the LLM server running on this port?)",
                        where, describe_answer(a.head))};
  }
  if (a.transport_error && transport::is_success_status(a.record.status)) {
    // It answered and is still generating (or cut the stream): the server is there.
    return {Verdict::kPass,
            fmt::format("preflight request to {} answered but did not finish: {}: {}", where,
                        a.transport_error->type.name(), a.transport_error->message)};
  }
  if (a.transport_error) {
    return {!a.transport_error->type.is(core::RequestErrorKind::kTimeout) ? Verdict::kRetry
                                                                          : Verdict::kFail,
            fmt::format("cannot reach {}: {}: {}", where, a.transport_error->type.name(),
                        a.transport_error->message)};
  }
  const int status = a.record.status;
  if (transport::is_success_status(status)) {
    if (a.record.error && a.record.error->type.is(core::RequestErrorKind::kResponseParse)) {
      return {Verdict::kFail,
              fmt::format("{} answered, but not as --endpoint-type {} expects: {} (check "
                          "--endpoint-type and --endpoint)",
                          where, plan.endpoint->info().name, snippet(a.record.error->message))};
    }
    return {Verdict::kPass, ""};
  }
  const auto& e = a.record.error;
  std::string failure = fmt::format("{} answered HTTP {} {}: {}", where, status,
                                    e ? e->type.name() : "", e ? snippet(e->message) : "");
  // A gateway's HTML page (502/504) says the server behind it is not up yet, as a 503 does.
  if (status == 404 || status == 503 || is_html_answer(a.head))
    return {Verdict::kRetry, std::move(failure)};
  if (status >= 500 || status == 408 || status == 429) {
    // The server is there (erring or busy); its errors are measured by the run itself.
    return {Verdict::kPass, "preflight request " + failure};
  }
  return {Verdict::kFail, std::move(failure)};
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
  marked.session_header = plan.session_header;
  marked.streaming = plan.streaming;
  marked.multipart = plan.multipart;
  marked.headers.emplace_back("X-Inferperf-Preflight", "1");
  std::string request;
  try {
    request = worker::serialize_request(marked, target, body, core::uuid4(), core::uuid4());
  } catch (const std::exception& e) {
    r.message = std::string("cannot build the first request: ") + e.what();
    return r;
  }
  wait_s = std::clamp(wait_s, 0.0, 1e7);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<std::int64_t>(wait_s * 1000));
  for (;;) {
    ++r.attempts;
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    Attempt a = attempt_once(plan, request,
                             std::min(plan.request_timeout_s, std::max(kAttemptTimeoutS, left)));
    Verdict v = judge(a, where, plan);
    const bool waiting = std::chrono::steady_clock::now() < deadline;
    if (v.kind != Verdict::kRetry || !waiting) {
      r.ok = v.kind == Verdict::kPass;
      r.message = std::move(v.message);
      if (v.kind == Verdict::kRetry && wait_s <= 0)
        r.message += " (--wait-for-model-timeout S keeps trying)";
      return r;
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace inferperf::app
