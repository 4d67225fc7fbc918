#include "server.hpp"

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <type_traits>
#include <vector>

#include "content.hpp"
#include "core/uuid.hpp"
#include "metric_pages.hpp"
#include "routes.hpp"

namespace inferperf::mock {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

std::string reason_phrase(int status) {
  auto r = http::obsolete_reason(static_cast<http::status>(status));
  return r.empty() ? "Unknown" : std::string(r.data(), r.size());
}

std::string plain_response(int status, std::string_view content_type, std::string_view body,
                           bool keep_alive) {
  return fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: {}\r\n\r\n{}",
      status, reason_phrase(status), content_type, body.size(), keep_alive ? "keep-alive" : "close",
      body);
}

std::string chunk(std::string_view data) {
  return fmt::format("{:x}\r\n{}\r\n", data.size(), data);
}

struct Fault {
  std::string kind;  // "" = none
  int status = 0;
  int delay_ms = 1000;
  bool has_value = false;  // "kind=N" rather than "kind"
  // big-event[=bytes]: the size of the token that replaces the first one (1 MiB by default).
  std::size_t big_bytes = std::size_t{1} << 20;
};

// big-event=N: up to 1 GiB, enough to pass any client limit without exhausting the mock's host.
constexpr std::int64_t kMaxBigEventBytes = std::int64_t{1} << 30;

Fault parse_fault(std::string_view header) {
  Fault f;
  std::string v(header);
  auto eq = v.find('=');
  f.kind = v.substr(0, eq);
  if (eq != std::string::npos) {
    f.has_value = true;
    try {
      const long long n = std::stoll(v.substr(eq + 1));
      if (f.kind == "big-event") {
        if (n < 1 || n > kMaxBigEventBytes) f.kind = "invalid";
        f.big_bytes = static_cast<std::size_t>(std::max(n, 1LL));
      } else if (n < INT_MIN || n > INT_MAX) {
        f.kind = "invalid";
      } else if (f.kind == "status") {
        f.status = static_cast<int>(n);
      } else {
        f.delay_ms = static_cast<int>(n);
      }
    } catch (const std::exception&) {
      f.kind = "invalid";
    }
  }
  if (f.kind == "status" && (f.status < 100 || f.status > 599)) f.kind = "invalid";
  return f;
}

// /dcgmN/metrics -> N (1..FakeDcgm::kMaxNodes).
std::optional<int> dcgm_node(std::string_view path) {
  constexpr std::string_view kHead = "/dcgm", kTail = "/metrics";
  if (!path.starts_with(kHead) || !path.ends_with(kTail)) return std::nullopt;
  const auto digits = path.substr(kHead.size(), path.size() - kHead.size() - kTail.size());
  if (digits.empty() || digits.size() > 3 || digits.front() == '0') return std::nullopt;
  int n = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n > FakeDcgm::kMaxNodes) return std::nullopt;
  return n;
}

// X-Mock-Timings: 1/true/yes/on or 0/false/no/off; anything else leaves the flag's choice.
std::optional<bool> parse_switch(std::string_view v) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  return std::nullopt;
}

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

constexpr std::string_view kRoutes =
    R"({"name":"inferperf-mock-server","routes":["/v1/chat/completions","/v1/completions",)"
    R"("/v1/models","/health","/metrics","/vllm/metrics","/sglang/metrics","/trtllm/metrics",)"
    R"("/dynamo_frontend/metrics","/dynamo_component/prefill/metrics",)"
    R"("/dynamo_component/decode/metrics","/dcgm{N}/metrics","/v1/embeddings","/v1/ranking",)"
    R"("/rerank","/v2/rerank","/v1/infer","/v1/image/infer","/generate","/generate_stream",)"
    R"("/rag/api/prompt","/v1/images/generations","/v1/videos","/v1/videos/{id}",)"
    R"("/v1/videos/{id}/content","/v1/responses","/v1/messages"]})";

// The POST inference routes.
enum class Route {
  None,
  Chat,
  Completions,
  Embeddings,
  RankingNim,
  RankingTei,
  RankingCohere,
  ImageRetrieval,
  Tgi,
  TgiStream,
  Rag,
  Images,
  Videos,
  Responses,
  Messages,
};

Route post_route(std::string_view path) {
  static const std::pair<std::string_view, Route> kTable[] = {
      {"/v1/chat/completions", Route::Chat},
      {"/v1/completions", Route::Completions},
      {"/v1/embeddings", Route::Embeddings},
      {"/v1/ranking", Route::RankingNim},
      {"/rerank", Route::RankingTei},
      {"/v2/rerank", Route::RankingCohere},
      {"/v1/infer", Route::ImageRetrieval},
      {"/v1/image/infer", Route::ImageRetrieval},
      {"/generate", Route::Tgi},
      {"/generate_stream", Route::TgiStream},
      {"/rag/api/prompt", Route::Rag},
      {"/v1/images/generations", Route::Images},
      {"/v1/videos", Route::Videos},
      {"/v1/responses", Route::Responses},
      {"/v1/messages", Route::Messages},
  };
  for (const auto& [p, r] : kTable)
    if (p == path) return r;
  return Route::None;
}

Clock::duration ms_duration(double ms) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
}

// Collects one streamed request's write stamps and appends its --token-log line when destroyed
// (a no-op without a log).
class TokenWrites {
 public:
  TokenWrites(TokenLog* log, const core::WallAnchor& anchor,
              const std::optional<std::string>& request_id, Clock::time_point received,
              std::size_t expected)
      : log_(log), anchor_(anchor), received_(received) {
    // A copy: the frame may be destroyed after the session moved on (server shutdown).
    if (log_) request_id_ = request_id;
    if (log_) writes_.reserve(expected);
  }
  ~TokenWrites() {
    if (!log_) return;
    std::optional<std::string_view> id;
    if (request_id_) id = *request_id_;
    log_->append(token_log_line(id, wall(received_), writes_));
  }
  TokenWrites(const TokenWrites&) = delete;
  TokenWrites& operator=(const TokenWrites&) = delete;
  // Only with a log: the clock read is the log's cost, not the server's.
  Clock::time_point now() const { return log_ ? Clock::now() : Clock::time_point{}; }
  void stamp(Clock::time_point handed) {
    if (log_) writes_.push_back(wall(handed));
  }

 private:
  std::int64_t wall(Clock::time_point t) const {
    return anchor_.to_wall(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
  }
  TokenLog* log_;
  const core::WallAnchor& anchor_;
  std::optional<std::string> request_id_;
  Clock::time_point received_;
  std::vector<std::int64_t> writes_;
};

}  // namespace

// Serves one connection; Stream is a plain TCP or Unix socket or a TLS stream over one.
template <typename Stream>
class Session {
 public:
  Session(MockServer& server, Stream stream) : server_(server), stream_(std::move(stream)) {}

  asio::awaitable<void> serve() {
    server_.counters_.connections.fetch_add(1);
    server_.counters_.connections_total.fetch_add(1);
    if constexpr (!std::is_same_v<Stream, tcp::socket> &&
                  !std::is_same_v<Stream, asio::local::stream_protocol::socket>) {
      beast::error_code hec;
      co_await stream_.async_handshake(asio::ssl::stream_base::server,
                                       asio::redirect_error(asio::use_awaitable, hec));
      if (hec) {
        server_.counters_.connections.fetch_sub(1);
        co_return;
      }
    }
    beast::flat_buffer buffer;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(256 * 1024 * 1024);
      beast::error_code ec;
      co_await http::async_read(stream_, buffer, parser,
                                asio::redirect_error(asio::use_awaitable, ec));
      if (ec) break;
      auto req = parser.release();
      close_after_ = false;
      close_after_delay_ms_ = 0;
      streamed_ = false;
      const bool keep = co_await handle(req);
      if (!keep || !socket().is_open()) break;
      // The response said keep-alive and the server closes anyway: at once, or after a delay in
      // which a request the client already wrote is never read (llama.cpp's server after streams).
      if (const auto delay_ms = close_delay_ms()) {
        if (*delay_ms > 0) co_await sleep_until(Clock::now() + ms_duration(*delay_ms));
        break;
      }
    }
    beast::error_code ignored;
    socket().shutdown(tcp::socket::shutdown_send, ignored);
    socket().close(ignored);
    server_.counters_.connections.fetch_sub(1);
  }

 private:
  using Request = http::request<http::string_body>;
  mutable bool close_after_ = false;      // this request asked for close-after
  mutable int close_after_delay_ms_ = 0;  // close-after=N: its delay
  bool streamed_ = false;                 // the response just sent was text/event-stream

  // --close-after-response[-delay-ms] (only after streams with --close-only-after-streams) or the
  // request's close-after[=N]: how long after the response to close; nullopt to keep the
  // connection.
  std::optional<double> close_delay_ms() const {
    if (close_after_) return close_after_delay_ms_;
    const auto& o = server_.options_;
    if (o.close_only_after_streams && !streamed_) return std::nullopt;
    if (o.close_after_response) return 0.0;
    if (o.close_after_response_delay_ms >= 0) return o.close_after_response_delay_ms;
    return std::nullopt;
  }

  struct Timing {
    Clock::time_point start;  // handler start
    Clock::time_point first;  // first token's deadline
    Clock::duration itl;
    bool timings;  // add llama.cpp-style timings
  };

  // One streamed event of a generation: tokens [from, to) of the reasoning or the content.
  struct TokenEvent {
    std::size_t index;  // event number
    bool reasoning;
    std::string_view text;  // the event's tokens, concatenated
    bool last;
    Clock::time_point first_at;  // when event 0 went out
    Clock::time_point released;  // now
  };
  // How a route writes its stream; stream_tokens() owns timing, faults and chunked framing.
  struct StreamSpec {
    std::string head;  // SSE text sent with the HTTP headers ("" = none)
    std::function<std::string(const TokenEvent&)> event;  // SSE text of one event
    std::function<std::vector<std::string>()> tail;       // SSE messages after the last event
    std::vector<std::string> error_event;  // X-Mock-Fault: error-event, after event 0; then the end
    std::string malformed;                 // X-Mock-Fault: malformed, after event 0 ("" = ignored)
  };

  asio::awaitable<void> send(std::string data) {
    beast::error_code ec;
    co_await asio::async_write(stream_, asio::buffer(data),
                               asio::redirect_error(asio::use_awaitable, ec));
    if (ec) write_failed_ = true;
  }

  asio::awaitable<void> sleep_until(Clock::time_point t) {
    if (t <= Clock::now()) co_return;
    asio::steady_timer timer(socket().get_executor());
    timer.expires_at(t);
    beast::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }

  // Returns whether the connection may be kept open.
  asio::awaitable<bool> handle(Request& req) {
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    const bool keep = req.keep_alive();
    if (server_.options_.access_logs) {
      std::cerr << fmt::format(
          "{} {} {}\n", std::string_view(req.method_string().data(), req.method_string().size()),
          target, req.body().size());
    }
    if (req.method() == http::verb::get && !server_.options_.hub_dir.empty() &&
        path.find("/resolve/") != std::string::npos) {
      co_await send(hub_file(req, path, keep));
      co_return keep && !write_failed_;
    }
    if (req.method() == http::verb::get) {
      if (path == "/health") {
        co_await send(plain_response(200, "application/json", R"({"status":"healthy"})", keep));
      } else if (path == "/v1/models" || path.starts_with("/v1/videos/")) {
        co_await send(gated_get(req, path, keep));
      } else if (path == "/metrics") {
        co_await send(plain_response(200, "text/plain; version=0.0.4", metrics_text(), keep));
      } else if (auto page = engine_page(path)) {
        co_await send(plain_response(200, "text/plain; version=0.0.4; charset=utf-8", *page, keep));
      } else if (auto node = dcgm_node(path)) {
        const auto now = Clock::now();
        const auto& o = server_.options_;
        const double load =
            o.dcgm_auto_load ? server_.served_.load(now, o.dcgm_min_throughput) : 0.0;
        co_await send(plain_response(200, "text/plain; version=0.0.4; charset=utf-8",
                                     server_.dcgm_.scrape(*node, load, now), keep));
      } else if (path == "/") {
        co_await send(plain_response(200, "application/json", kRoutes, keep));
      } else {
        co_await send(plain_response(404, "application/json", R"({"detail":"Not Found"})", keep));
      }
      co_return keep && !write_failed_;
    }
    const Route route = req.method() == http::verb::post ? post_route(path) : Route::None;
    if (route == Route::None) {
      co_await send(plain_response(404, "application/json", R"({"detail":"Not Found"})", keep));
      co_return keep && !write_failed_;
    }
    // inferperf's preflight request (X-Inferperf-Preflight) is answered like any other but is
    // neither faulted nor counted: the mock's numbers describe the benchmark alone.
    client_preflight_ = header(req, "X-Inferperf-Preflight").has_value();
    request_id_.reset();
    if (server_.token_log_) {
      if (auto id = header(req, "X-Request-ID")) request_id_ = std::string(*id);
    }
    if (client_preflight_) co_return co_await serve_inference(req, route, keep) && !write_failed_;
    auto& c = server_.counters_;
    c.requests.fetch_add(1);
    const std::int64_t now_in = c.in_flight.fetch_add(1) + 1;
    std::int64_t prev = c.max_in_flight.load();
    while (now_in > prev && !c.max_in_flight.compare_exchange_weak(prev, now_in)) {
    }
    bool result = co_await serve_inference(req, route, keep);
    c.in_flight.fetch_sub(1);
    co_return result && !write_failed_;
  }

  std::optional<std::string_view> header(const Request& req, std::string_view name) const {
    const auto it = req.find(name);
    if (it == req.end()) return std::nullopt;
    return std::string_view(it->value().data(), it->value().size());
  }

  bool elapsed_since_start(double seconds) const {
    return Clock::now() - server_.start_ >=
           std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }

  // GET /v1/models and /v1/videos/{id}[/content], behind the API key.
  std::string gated_get(const Request& req, const std::string& path, bool keep) const {
    const auto& o = server_.options_;
    if (auto e = check_api_key(o, header(req, o.auth_header_name)))
      return plain_response(e->status, "application/json", e->body, keep);
    if (path == "/v1/models") {
      if (o.disable_models_endpoint)
        return plain_response(404, "application/json", R"({"detail":"Not Found"})", keep);
      if (!elapsed_since_start(o.models_ready_delay_s))
        return plain_response(503, "application/json", R"({"detail":"Model is loading"})", keep);
      return plain_response(
          200, "application/json",
          fmt::format(
              R"({{"object":"list","data":[{{"id":"{}","object":"model","created":{},"owned_by":"inferperf-mock"}}]}})",
              json_escape(o.model_name), std::time(nullptr)),
          keep);
    }
    std::string_view id = std::string_view(path).substr(std::string_view("/v1/videos/").size());
    const bool content = id.ends_with("/content");
    if (content) id.remove_suffix(std::string_view("/content").size());
    const auto not_found = route_error(404, fmt::format("video '{}' not found", id));
    if (content) {
      switch (server_.videos_.content(id, Clock::now())) {
        case VideoJobs::ContentState::Unknown:
          return plain_response(404, "application/json", not_found.body, keep);
        case VideoJobs::ContentState::NotReady: {
          const auto e = route_error(409, "video is not completed");
          return plain_response(409, "application/json", e.body, keep);
        }
        case VideoJobs::ContentState::Ready:
          return plain_response(200, "video/mp4", video_mp4_bytes(), keep);
      }
    }
    if (auto job = server_.videos_.get(id, Clock::now()))
      return plain_response(200, "application/json", *job, keep);
    return plain_response(404, "application/json", not_found.body, keep);
  }

  // API key, readiness, strict model, then the route.
  asio::awaitable<bool> serve_inference(Request& req, Route route, bool keep) {
    const auto& o = server_.options_;
    std::optional<RouteError> gate = check_api_key(o, header(req, o.auth_header_name));
    if (!gate && !elapsed_since_start(o.inference_ready_delay_s))
      gate = RouteError{503, R"({"detail":"Model is loading"})"};
    if (!gate) gate = check_model(o, req.body());
    if (gate) {
      co_await send(plain_response(gate->status, "application/json", gate->body, keep));
      co_return keep;
    }
    switch (route) {
      case Route::Chat:
      case Route::Completions:
        co_return co_await generate(req, route == Route::Chat, keep);
      case Route::Embeddings:
      case Route::RankingNim:
      case Route::RankingTei:
      case Route::RankingCohere:
      case Route::ImageRetrieval:
        co_return co_await answer_fixed(req, route, keep);
      case Route::Images:
        co_return co_await answer_images(req, keep);
      case Route::Videos:
        co_return co_await answer_video_create(req, keep);
      default:
        co_return co_await answer_generation(req, route, keep);
    }
  }

  // --error-rate and the faults that come before any work (status, reset, close, slow-headers).
  // nullopt: go on; else the request has been answered and the value says whether to keep the
  // connection. `on_reject` runs for requests turned away.
  asio::awaitable<std::optional<bool>> fault_gate(const Fault& fault, Clock::time_point start,
                                                  bool keep,
                                                  const std::function<void()>& on_reject) {
    if (!client_preflight_ && server_.inject_error()) {
      on_reject();
      co_return co_await fail_status(500, R"({"detail":"Simulated error"})", keep);
    }
    if (fault.kind == "status" || fault.kind == "reset" || fault.kind == "close") on_reject();
    if (fault.kind == "status") {
      co_return co_await fail_status(
          fault.status,
          fmt::format(
              R"({{"error":{{"message":"mock fault status {}","type":"mock_fault","code":{}}}}})",
              fault.status, fault.status),
          keep);
    }
    if (fault.kind == "reset" || fault.kind == "close") {
      server_.counters_.errors_injected.fetch_add(1);
      beast::error_code ec;
      if (fault.kind == "reset") socket().set_option(asio::socket_base::linger(true, 0), ec);
      socket().close(ec);
      co_return false;
    }
    if (fault.kind == "slow-headers")
      co_await sleep_until(start + std::chrono::milliseconds(fault.delay_ms));
    co_return std::nullopt;
  }

  Fault request_fault(const Request& req) const {
    if (client_preflight_) return {};
    Fault f;
    if (auto it = req.find("X-Mock-Fault"); it != req.end()) {
      f = parse_fault(it->value());
    } else if (const std::string drawn = server_.draw_fault(); !drawn.empty()) {
      f = parse_fault(drawn);
    }
    if (f.kind == "close-after") {
      close_after_ = true;
      close_after_delay_ms_ = f.has_value ? std::max(0, f.delay_ms) : 0;
    }
    return f;
  }

  // Embeddings, rankings, image retrieval: base + per-unit x units, then the whole body.
  asio::awaitable<bool> answer_fixed(Request& req, Route route, bool keep) {
    const auto start = Clock::now();
    const auto& o = server_.options_;
    const Fault fault = request_fault(req);
    if (auto done = co_await fault_gate(fault, start, keep, [] {})) co_return *done;
    FixedReply reply;
    std::optional<RouteError> err;
    double base = 0, per = 0;
    const auto* tok = server_.tokenizer_.get();
    try {
      switch (route) {
        case Route::Embeddings:
          err = embeddings_reply(req.body(), tok, reply);
          base = o.embedding_base_latency_ms;
          per = o.embedding_per_input_latency_ms;
          break;
        case Route::ImageRetrieval:
          err = image_retrieval_reply(req.body(), reply);
          base = o.image_retrieval_base_latency_ms;
          per = o.image_retrieval_per_image_latency_ms;
          break;
        default:
          err = ranking_reply(req.body(),
                              route == Route::RankingNim   ? RankingFlavor::Nim
                              : route == Route::RankingTei ? RankingFlavor::Tei
                                                           : RankingFlavor::Cohere,
                              tok, reply);
          base = o.ranking_base_latency_ms;
          per = o.ranking_per_passage_latency_ms;
      }
    } catch (const std::exception& e) {
      err = route_error(400, std::string("invalid request field: ") + e.what());
    }
    if (err) co_return co_await fail_status(err->status, err->body, keep);
    if (!o.fast)
      co_await sleep_until(start + ms_duration(base + per * static_cast<double>(reply.units)));
    co_await send(plain_response(200, "application/json", reply.body, keep));
    co_return keep;
  }

  Timing timing_from(Clock::time_point start, std::int64_t first_extra_steps = 0) const {
    const auto& o = server_.options_;
    const auto ttft = ms_duration(o.fast ? 0.0 : o.ttft_ms);
    const auto itl = ms_duration(o.fast ? 0.0 : o.itl_ms);
    return Timing{start, start + ttft + itl * first_extra_steps, itl, false};
  }

  // TGI, RAG, Responses, Messages: the chat generator's plan and timing in other formats.
  asio::awaitable<bool> answer_generation(Request& req, Route route, bool keep) {
    const auto start = Clock::now();
    created_ = std::time(nullptr);
    const Fault fault = request_fault(req);
    const bool chat_like = route != Route::Tgi && route != Route::TgiStream;
    if (auto done = co_await fault_gate(fault, start, keep, [&] {
          server_.served_.rejected(chat_like, route == Route::TgiStream);
        }))
      co_return *done;
    GenerationRequest g;
    std::optional<RouteError> err;
    try {
      switch (route) {
        case Route::Tgi:
        case Route::TgiStream:
          err = parse_tgi_request(req.body(), g);
          g.stream = route == Route::TgiStream;
          break;
        case Route::Rag:
          err = parse_rag_request(req.body(), g);
          if (auto acc = header(req, "Accept");
              acc && acc->find("text/event-stream") != std::string_view::npos)
            g.stream = true;
          break;
        case Route::Responses:
          err = parse_responses_request(req.body(), g);
          break;
        default:
          err = parse_messages_request(req.body(), header(req, "anthropic-version").has_value(), g);
      }
    } catch (const std::exception& e) {
      err = route_error(400, std::string("invalid request field: ") + e.what());
    }
    if (err) {
      server_.served_.rejected(chat_like, false);
      co_return co_await fail_status(err->status, err->body, keep);
    }
    if (route == Route::Rag) co_return co_await answer_plan(req, g, fault, start, keep);

    GenerationPlan plan = planned(g);
    if (fault.kind == "big-event" && !plan.output.empty())
      plan.output.front() = std::string(fault.big_bytes, 'x');
    const auto n = static_cast<std::int64_t>(plan.output.size() + plan.reasoning.size());
    server_.counters_.output_tokens.fetch_add(n);
    RequestTrace trace(client_preflight_ ? server_.unmeasured_ : server_.served_, chat_like,
                       g.stream, static_cast<std::int64_t>(plan.prompt_tokens.size()),
                       static_cast<std::int64_t>(req.body().size()), start);
    const Timing tm = timing_from(start);
    std::string hex = core::uuid4();
    std::erase(hex, '-');

    if (!g.stream) {
      co_await sleep_until(tm.first);
      const auto first_at = Clock::now();
      co_await sleep_until(tm.first + tm.itl * n);
      const auto last_at = Clock::now();
      std::string body;
      if (route == Route::Tgi) {
        body = fmt::format(R"({{"generated_text":"{}"}})", json_escape(joined(plan.output)));
      } else if (route == Route::Responses) {
        body = ResponsesStream("resp_" + hex, g.model, created_, plan)
                   .response_json("completed", true);
      } else {
        body = messages_whole_json("msg_" + hex, g.model, plan);
      }
      trace.whole(n, static_cast<std::int64_t>(body.size()), first_at, last_at);
      trace.complete(plan.finish_reason);
      co_await send(plain_response(200, "application/json", body, keep));
      co_return keep;
    }

    StreamSpec spec;
    std::optional<ResponsesStream> rs;
    std::optional<MessagesStream> ms;
    if (route == Route::TgiStream) {
      const std::string full = joined(plan.output);
      const std::string finish = tgi_finish_reason(plan.finish_reason);
      spec.event = [&plan, full, finish](const TokenEvent& e) {
        return "data:" +
               tgi_stream_event(e.index, e.text, e.last, full, finish, plan.output.size()) + "\n\n";
      };
      spec.tail = [] { return std::vector<std::string>{}; };
      spec.error_event = {
          "data:{\"error\":\"mock fault error-event\",\"error_type\":\"generation\"}\n\n"};
    } else if (route == Route::Responses) {
      rs.emplace("resp_" + hex, g.model, created_, plan);
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
    co_return co_await stream_tokens(plan, spec, fault, tm, trace, keep);
  }

  // /v1/images/generations: TTFT + kImageSteps x ITL; streamed partial images spread over the
  // steps.
  asio::awaitable<bool> answer_images(Request& req, bool keep) {
    const auto start = Clock::now();
    created_ = std::time(nullptr);
    const Fault fault = request_fault(req);
    if (auto done = co_await fault_gate(fault, start, keep, [] {})) co_return *done;
    ImageRequest r;
    std::optional<RouteError> err;
    try {
      err = parse_image_request(req.body(), r);
    } catch (const std::exception& e) {
      err = route_error(400, std::string("invalid request field: ") + e.what());
    }
    if (err) co_return co_await fail_status(err->status, err->body, keep);
    const auto p =
        static_cast<std::int64_t>(tokenize_pieces(r.prompt, server_.tokenizer_.get()).size());
    const Timing tm = timing_from(start);
    const auto done_at = tm.first + tm.itl * kImageSteps;
    if (!r.stream) {
      co_await sleep_until(done_at);
      co_await send(
          plain_response(200, "application/json", image_whole_json(r, created_, p), keep));
      co_return keep;
    }
    streamed_ = true;
    co_await send(fmt::format(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        "Transfer-Encoding: chunked\r\nConnection: {}\r\n\r\n",
        keep ? "keep-alive" : "close"));
    if (write_failed_) co_return false;
    for (int k = 0; k < r.partial_images; ++k) {
      co_await sleep_until(tm.first + tm.itl * ((k + 1) * kImageSteps / (r.partial_images + 1)));
      std::string out = chunk(image_partial_event(r, k, created_));
      if (k == 0 && fault.kind == "error-event") {
        server_.counters_.errors_injected.fetch_add(1);
        out += chunk(
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"mock_fault\","
            "\"message\":\"mock fault error-event\"}}\n\n");
        out += "0\r\n\r\n";
        co_await send(std::move(out));
        co_return keep && !write_failed_;
      }
      co_await send(std::move(out));
      if (write_failed_) co_return false;
    }
    co_await sleep_until(done_at);
    co_await send(chunk(image_completed_event(r, created_, p)) + "0\r\n\r\n");
    co_return keep && !write_failed_;
  }

  // POST /v1/videos: a job that is queued for TTFT, then runs 20 x ITL (X-Mock-Fault: video-fail
  // makes it end failed).
  asio::awaitable<bool> answer_video_create(Request& req, bool keep) {
    const auto start = Clock::now();
    const Fault fault = request_fault(req);
    if (auto done = co_await fault_gate(fault, start, keep, [] {})) co_return *done;
    VideoRequest r;
    std::optional<RouteError> err;
    try {
      err = parse_video_request(req.body(), r);
    } catch (const std::exception& e) {
      err = route_error(400, std::string("invalid request field: ") + e.what());
    }
    if (err) co_return co_await fail_status(err->status, err->body, keep);
    const Timing tm = timing_from(start);
    if (fault.kind == "video-fail") server_.counters_.errors_injected.fetch_add(1);
    const std::string body = server_.videos_.create(r, start, std::time(nullptr), tm.first - start,
                                                    tm.itl * 20, fault.kind == "video-fail");
    co_await send(plain_response(200, "application/json", body, keep));
    co_return keep;
  }

  // Hub emulation: /ORG/NAME/resolve/REV/FILE -> HUB_DIR/ORG/NAME/FILE.
  std::string hub_file(const Request& req, const std::string& path, bool keep) const {
    const auto& o = server_.options_;
    if (!o.hub_token.empty()) {
      auto it = req.find(http::field::authorization);
      if (it == req.end() ||
          std::string_view(it->value().data(), it->value().size()) != "Bearer " + o.hub_token) {
        return plain_response(401, "application/json", R"({"error":"Invalid credentials"})", keep);
      }
    }
    const auto r = path.find("/resolve/");
    const std::string repo = path.substr(1, r - 1);
    std::string rest = path.substr(r + 9);
    const auto slash = rest.find('/');
    const std::string file = slash == std::string::npos ? "" : rest.substr(slash + 1);
    const std::filesystem::path p = std::filesystem::path(o.hub_dir) / repo / file;
    // Only files under --hub-dir: no "..", and no absolute part ("//etc/..." would replace the
    // folder in the join above).
    if (repo.empty() || repo.front() == '/' || repo.find("..") != std::string::npos ||
        file.empty() || file.front() == '/' || file.find("..") != std::string::npos ||
        !std::filesystem::is_regular_file(p)) {
      return fmt::format(
          "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nX-Error-Code: "
          "EntryNotFound\r\n"
          "Content-Length: 29\r\nConnection: {}\r\n\r\n{{\"error\":\"Entry not found\"}}  ",
          keep ? "keep-alive" : "close");
    }
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string body = ss.str();
    // A stable fake commit per repository, like the real Hub's X-Repo-Commit.
    const std::string commit =
        fmt::format("{:016x}{:016x}", std::hash<std::string>{}(repo), repo.size());
    return fmt::format(
        "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nX-Repo-Commit: {}\r\n"
        "Content-Length: {}\r\nConnection: {}\r\n\r\n{}",
        commit, body.size(), keep ? "keep-alive" : "close", body);
  }

  // The engine-flavoured pages, or nullopt when `path` is not one of them.
  std::optional<std::string> engine_page(const std::string& path) const {
    using PageFn = std::string (*)(const ServedSnapshot&, const EnginePageInfo&);
    PageFn fn = nullptr;
    if (path == "/vllm/metrics") {
      fn = vllm_metrics_page;
    } else if (path == "/sglang/metrics") {
      fn = sglang_metrics_page;
    } else if (path == "/trtllm/metrics") {
      fn = trtllm_metrics_page;
    } else if (path == "/dynamo_frontend/metrics") {
      fn = dynamo_frontend_metrics_page;
    } else if (path != "/dynamo_component/prefill/metrics" &&
               path != "/dynamo_component/decode/metrics") {
      return std::nullopt;
    }
    const EnginePageInfo info{server_.options_.model_name, server_.start_unix_s_};
    const ServedSnapshot snap = server_.served_.snapshot();
    if (fn) return fn(snap, info);
    return dynamo_component_metrics_page(snap, info, path == "/dynamo_component/prefill/metrics");
  }

  std::string metrics_text() const {
    const auto& c = server_.counters_;
    std::string text = fmt::format(
        "# HELP inferperf_mock_requests_total Inference requests received.\n"
        "# TYPE inferperf_mock_requests_total counter\n"
        "inferperf_mock_requests_total {}\n"
        "# HELP inferperf_mock_in_flight Inference requests being answered now.\n"
        "# TYPE inferperf_mock_in_flight gauge\n"
        "inferperf_mock_in_flight {}\n"
        "# HELP inferperf_mock_max_in_flight Highest number of inference requests answered at "
        "once.\n"
        "# TYPE inferperf_mock_max_in_flight gauge\n"
        "inferperf_mock_max_in_flight {}\n"
        "# HELP inferperf_mock_errors_injected_total Requests failed on purpose (--error-rate or "
        "faults).\n"
        "# TYPE inferperf_mock_errors_injected_total counter\n"
        "inferperf_mock_errors_injected_total {}\n"
        "# HELP inferperf_mock_output_tokens_total Output tokens sent.\n"
        "# TYPE inferperf_mock_output_tokens_total counter\n"
        "inferperf_mock_output_tokens_total {}\n"
        "# HELP inferperf_mock_open_connections Open client connections.\n"
        "# TYPE inferperf_mock_open_connections gauge\n"
        "inferperf_mock_open_connections {}\n"
        "# HELP inferperf_mock_connections_total Client connections accepted.\n"
        "# TYPE inferperf_mock_connections_total counter\n"
        "inferperf_mock_connections_total {}\n",
        c.requests.load(), c.in_flight.load(), c.max_in_flight.load(), c.errors_injected.load(),
        c.output_tokens.load(), c.connections.load(), c.connections_total.load());
    return text + mock_histograms_page(server_.served_.snapshot());
  }

  // `extra`: more top-level members, written as ',"key":value...'.
  std::string chunk_json(const GenerationRequest& g, const std::string& id,
                         std::string_view delta_or_text, std::string_view finish,
                         std::string_view extra = "") const {
    const std::string fr = finish.empty() ? "null" : fmt::format("\"{}\"", finish);
    if (g.chat) {
      return fmt::format(
          R"({{"id":"{}","object":"chat.completion.chunk","created":{},"model":"{}","choices":[{{"index":0,"delta":{},"finish_reason":{}}}]{}}})",
          id, created_, json_escape(g.model), delta_or_text, fr, extra);
    }
    return fmt::format(
        R"({{"id":"{}","object":"text_completion","created":{},"model":"{}","choices":[{{"index":0,"text":"{}","finish_reason":{}}}]{}}})",
        id, created_, json_escape(g.model), json_escape(delta_or_text), fr, extra);
  }

  // ',"timings":{...}' for a request that asked for timings, else "".
  static std::string timings_member(bool wanted, const GenerationPlan& p, Clock::time_point start,
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

  static std::string usage_json(const GenerationPlan& p) {
    const std::size_t completion = p.output.size() + p.reasoning.size();
    std::string details =
        p.reasoning.empty()
            ? ""
            : fmt::format(R"(,"completion_tokens_details":{{"reasoning_tokens":{}}})",
                          p.reasoning.size());
    // As vLLM with prefix caching: the cached share of the prompt, only when there is one.
    if (p.cached_tokens > 0)
      details += fmt::format(R"(,"prompt_tokens_details":{{"cached_tokens":{}}})", p.cached_tokens);
    return fmt::format(R"({{"prompt_tokens":{},"completion_tokens":{},"total_tokens":{}{}}})",
                       p.prompt_tokens.size(), completion, p.prompt_tokens.size() + completion,
                       details);
  }

  // The generation for `g`, with the share of its prompt the prefix cache held (the preflight's
  // prompt is cached too, as a real server would).
  GenerationPlan planned(const GenerationRequest& g) {
    GenerationPlan plan = plan_generation(g, server_.tokenizer_.get());
    plan.cached_tokens = server_.prefix_cache_.lookup_and_insert(plan.prompt_tokens);
    return plan;
  }

  // Whether a body the mock turns away asked for streaming (for the frontend's request counts).
  static bool wants_stream(const Request& req, bool chat) {
    GenerationRequest g;
    return !parse_generation_request(req.body(), chat, g) && g.stream;
  }

  asio::awaitable<bool> fail_status(int status, std::string body, bool keep) {
    server_.counters_.errors_injected.fetch_add(1);
    co_await send(plain_response(status, "application/json", body, keep));
    co_return keep;
  }

  asio::awaitable<bool> generate(Request& req, bool chat, bool keep) {
    const auto start = Clock::now();
    created_ = std::time(nullptr);
    const Fault fault = request_fault(req);
    if (auto done = co_await fault_gate(
            fault, start, keep, [&] { server_.served_.rejected(chat, wants_stream(req, chat)); }))
      co_return *done;

    GenerationRequest g;
    if (auto err = parse_generation_request(req.body(), chat, g)) {
      server_.served_.rejected(chat, false);
      co_return co_await fail_status(
          400,
          fmt::format(R"({{"error":{{"message":"{}","type":"BadRequestError","code":400}}}})",
                      json_escape(*err)),
          keep);
    }
    co_return co_await answer_plan(req, g, fault, start, keep);
  }

  // A parsed chat/completions request (also SOLIDO RAG's), answered in the OpenAI formats.
  asio::awaitable<bool> answer_plan(const Request& req, const GenerationRequest& g,
                                    const Fault& fault, Clock::time_point start, bool keep) {
    const bool chat = g.chat;
    const auto& o = server_.options_;
    GenerationPlan plan = planned(g);
    if (fault.kind == "big-event" && !plan.output.empty())
      plan.output.front() = std::string(fault.big_bytes, 'x');
    const std::string id = (chat ? "chatcmpl-" : "cmpl-") + core::uuid4();
    server_.counters_.output_tokens.fetch_add(
        static_cast<std::int64_t>(plan.output.size() + plan.reasoning.size()));

    bool timings = o.timings;
    if (auto it = req.find("X-Mock-Timings"); it != req.end()) {
      const auto v = it->value();
      timings = parse_switch(std::string_view(v.data(), v.size())).value_or(timings);
    }
    RequestTrace trace(client_preflight_ ? server_.unmeasured_ : server_.served_, chat, g.stream,
                       static_cast<std::int64_t>(plan.prompt_tokens.size()),
                       static_cast<std::int64_t>(req.body().size()), start);
    Timing timing = timing_from(start);
    timing.timings = timings;
    if (!g.stream) co_return co_await answer_whole(g, plan, id, fault, timing, trace, keep);
    co_return co_await answer_stream(g, plan, id, fault, timing, trace, keep);
  }

  asio::awaitable<bool> answer_whole(const GenerationRequest& g, const GenerationPlan& plan,
                                     const std::string& id, const Fault& fault, const Timing& tm,
                                     RequestTrace& trace, bool keep) {
    const auto n = static_cast<std::int64_t>(plan.output.size() + plan.reasoning.size());
    co_await sleep_until(tm.first);
    const auto first_at = Clock::now();
    co_await sleep_until(tm.first + tm.itl * n);
    const auto last_at = Clock::now();
    const std::string timings = timings_member(tm.timings, plan, tm.start, first_at, last_at);
    std::string text, reasoning;
    for (const auto& t : plan.output) text += t;
    for (const auto& t : plan.reasoning) reasoning += t;
    std::string body;
    if (fault.kind == "malformed") {
      body = R"({"id":"broken", "choices": [)";
    } else if (g.chat) {
      std::string rc = reasoning.empty()
                           ? ""
                           : fmt::format(R"(,"reasoning_content":"{}")", json_escape(reasoning));
      body = fmt::format(
          R"({{"id":"{}","object":"chat.completion","created":{},"model":"{}","choices":[{{"index":0,"message":{{"role":"assistant","content":"{}"{}}},"finish_reason":"{}"}}],"usage":{}{}}})",
          id, created_, json_escape(g.model), json_escape(text), rc, plan.finish_reason,
          usage_json(plan), timings);
    } else {
      body = fmt::format(
          R"({{"id":"{}","object":"text_completion","created":{},"model":"{}","choices":[{{"index":0,"text":"{}","finish_reason":"{}"}}],"usage":{}{}}})",
          id, created_, json_escape(g.model), json_escape(text), plan.finish_reason,
          usage_json(plan), timings);
    }
    if (fault.kind == "truncate") {
      server_.counters_.errors_injected.fetch_add(1);
      std::string full = plain_response(200, "application/json", body, keep);
      co_await send(full.substr(0, full.size() - body.size() / 2));
      beast::error_code ec;
      socket().close(ec);
      co_return false;
    }
    if (fault.kind == "malformed") {
      server_.counters_.errors_injected.fetch_add(1);
    } else {
      // Counted before the write, so a client that has the answer also sees it in the metrics.
      trace.whole(n, static_cast<std::int64_t>(body.size()), first_at, last_at);
      trace.complete(plan.finish_reason);
    }
    co_await send(plain_response(200, "application/json", body, keep));
    co_return keep;
  }

  asio::awaitable<bool> answer_stream(const GenerationRequest& g, const GenerationPlan& plan,
                                      const std::string& id, const Fault& fault, const Timing& tm,
                                      RequestTrace& trace, bool keep) {
    StreamSpec spec;
    if (g.chat) {
      // Role-only first chunk right away, as vLLM sends it; it carries no content.
      spec.head = "data: " + chunk_json(g, id, R"({"role":"assistant","content":""})", "") + "\n\n";
    }
    spec.event = [&](const TokenEvent& e) {
      // The last chunk (with finish_reason) carries the timings, as llama.cpp's server sends them.
      const std::string extra =
          e.last ? timings_member(tm.timings, plan, tm.start, e.first_at, e.released) : "";
      const std::string_view finish = e.last ? std::string_view(plan.finish_reason) : "";
      if (!g.chat) return "data: " + chunk_json(g, id, e.text, finish, extra) + "\n\n";
      const std::string delta =
          e.reasoning ? fmt::format(R"({{"reasoning_content":"{}"}})", json_escape(e.text))
                      : fmt::format(R"({{"content":"{}"}})", json_escape(e.text));
      return "data: " + chunk_json(g, id, delta, finish, extra) + "\n\n";
    };
    spec.tail = [&] {
      std::vector<std::string> out;
      if (g.include_usage) {
        out.push_back(
            "data: " +
            fmt::format(
                R"({{"id":"{}","object":"{}","created":{},"model":"{}","choices":[],"usage":{}}})",
                id, g.chat ? "chat.completion.chunk" : "text_completion", created_,
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
    co_return co_await stream_tokens(plan, spec, fault, tm, trace, keep);
  }

  // The shared token emitter: reasoning tokens first, then content, grouped K tokens per event.
  // Event j goes out at start + TTFT + j*ITL (absolute), so late events are sent at once and
  // nothing drifts. Applies the streaming faults (stall, malformed, error-event, truncate).
  asio::awaitable<bool> stream_tokens(const GenerationPlan& plan, const StreamSpec& spec,
                                      const Fault& fault, const Timing& tm, RequestTrace& trace,
                                      bool keep) {
    std::string head = fmt::format(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        "Transfer-Encoding: chunked\r\nConnection: {}\r\n\r\n",
        keep ? "keep-alive" : "close");
    if (!spec.head.empty()) head += chunk(spec.head);
    streamed_ = true;
    co_await send(std::move(head));
    if (write_failed_) co_return false;
    if (fault.kind == "stall") {
      server_.counters_.errors_injected.fetch_add(1);
      co_await sleep_until(Clock::now() + std::chrono::minutes(10));
      co_return false;
    }

    struct Ev {
      bool reasoning;
      std::size_t from, to;
    };
    std::vector<Ev> events;
    const std::size_t k = static_cast<std::size_t>(std::max(1, server_.options_.tokens_per_event));
    for (std::size_t i = 0; i < plan.reasoning.size(); i += k)
      events.push_back({true, i, std::min(i + k, plan.reasoning.size())});
    for (std::size_t i = 0; i < plan.output.size(); i += k)
      events.push_back({false, i, std::min(i + k, plan.output.size())});
    const bool truncate = fault.kind == "truncate";
    const std::size_t stop_at = truncate ? events.size() / 2 : events.size();
    // --token-log: the wall-clock time each token event was handed to its write. The line is
    // appended when this coroutine ends on any path (finished, fault, failed write, server
    // stopped), so a truncated stream logs the writes it made. Preflight requests are not the
    // benchmark's.
    TokenWrites writes(client_preflight_ ? nullptr : server_.token_log_.get(), server_.anchor_,
                       request_id_, tm.start, stop_at);
    Clock::time_point first_at{};
    for (std::size_t j = 0; j < stop_at; ++j) {
      co_await sleep_until(tm.first + tm.itl * static_cast<std::int64_t>(j));
      const auto released = Clock::now();
      if (j == 0) first_at = released;
      const Ev& e = events[j];
      const auto& src = e.reasoning ? plan.reasoning : plan.output;
      std::string text;
      for (std::size_t i = e.from; i < e.to; ++i) text += src[i];
      const bool last = j + 1 == events.size();
      std::string out =
          chunk(spec.event(TokenEvent{j, e.reasoning, text, last, first_at, released}));
      trace.event(static_cast<std::int64_t>(e.to - e.from), static_cast<std::int64_t>(out.size()),
                  released);
      if (last) trace.complete(plan.finish_reason);
      if (j == 0 && fault.kind == "malformed" && !spec.malformed.empty()) {
        server_.counters_.errors_injected.fetch_add(1);
        out += chunk(spec.malformed);
      }
      if (j == 0 && fault.kind == "error-event" && !spec.error_event.empty()) {
        server_.counters_.errors_injected.fetch_add(1);
        for (const auto& m : spec.error_event) out += chunk(m);
        out += "0\r\n\r\n";
        const auto handed = writes.now();
        co_await send(std::move(out));
        if (!write_failed_) writes.stamp(handed);
        co_return keep && !write_failed_;
      }
      // Stamped as the event is handed to the write: asio makes the write system call inside the
      // initiating call, while the completion resumes this coroutine only after every handler
      // queued before it, which under load is milliseconds later. Kept only when the write
      // completes.
      const auto handed = writes.now();
      co_await send(std::move(out));
      if (write_failed_) co_return false;
      writes.stamp(handed);
    }
    if (truncate) {
      server_.counters_.errors_injected.fetch_add(1);
      beast::error_code ec;
      socket().close(ec);
      co_return false;
    }
    std::string tail;
    for (const auto& m : spec.tail()) tail += chunk(m);
    tail += "0\r\n\r\n";
    co_await send(std::move(tail));
    co_return keep && !write_failed_;
  }

  auto& socket() { return beast::get_lowest_layer(stream_); }

  MockServer& server_;
  Stream stream_;
  bool write_failed_ = false;
  bool client_preflight_ = false;          // the request carries X-Inferperf-Preflight
  std::optional<std::string> request_id_;  // X-Request-ID, kept only with --token-log
  std::time_t created_ = 0;
};

namespace {
FakeDcgmConfig dcgm_config(const MockOptions& o) {
  FakeDcgmConfig c;
  c.profile = find_gpu_profile(o.dcgm_gpu_name);
  if (!c.profile) throw std::runtime_error("unknown --dcgm-gpu-name " + o.dcgm_gpu_name);
  c.num_gpus = o.dcgm_num_gpus;
  c.hostname = o.dcgm_hostname;
  c.seed = o.dcgm_seed;
  return c;
}
}  // namespace

MockServer::MockServer(MockOptions options, std::shared_ptr<const tokenizer::Tokenizer> tokenizer)
    : options_(std::move(options)),
      start_unix_s_(
          std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
              .count()),
      served_(options_.dcgm_window_sec, start_),
      unmeasured_(options_.dcgm_window_sec, start_),
      dcgm_(dcgm_config(options_), start_),
      acceptor_(io_),
      unix_acceptor_(io_),
      tokenizer_(std::move(tokenizer)),
      rng_(options_.random_seed.value_or(std::random_device{}())) {
  if (!options_.token_log.empty()) token_log_ = std::make_unique<TokenLog>(options_.token_log);
  if (!options_.tls_cert.empty() || !options_.tls_key.empty()) {
    if (options_.tls_cert.empty() || options_.tls_key.empty()) {
      throw std::runtime_error("--tls-cert and --tls-key must be given together");
    }
    tls_ = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
    tls_->use_certificate_chain_file(options_.tls_cert);
    tls_->use_private_key_file(options_.tls_key, asio::ssl::context::pem);
  }
}

std::uint16_t MockServer::bind() {
  if (!options_.unix_socket.empty()) {
    std::error_code rm;
    if (std::filesystem::is_socket(options_.unix_socket, rm))
      std::filesystem::remove(options_.unix_socket, rm);  // left by an earlier run
    asio::local::stream_protocol::endpoint ep(options_.unix_socket);
    unix_acceptor_.open(ep.protocol());
    unix_acceptor_.bind(ep);
    unix_acceptor_.listen(asio::socket_base::max_listen_connections);
    return 0;
  }
  tcp::resolver resolver(io_);
  auto results = resolver.resolve(options_.host, std::to_string(options_.port));
  tcp::endpoint ep = results.begin()->endpoint();
  acceptor_.open(ep.protocol());
  acceptor_.set_option(asio::socket_base::reuse_address(true));
  acceptor_.bind(ep);
  acceptor_.listen(asio::socket_base::max_listen_connections);
  return acceptor_.local_endpoint().port();
}

std::string MockServer::draw_fault() {
  if (options_.fault_rate <= 0 || options_.fault_kinds.empty()) return {};
  std::lock_guard lock(rng_mu_);
  if (!(std::uniform_real_distribution<double>(0.0, 100.0)(rng_) < options_.fault_rate)) return {};
  std::uniform_int_distribution<std::size_t> pick(0, options_.fault_kinds.size() - 1);
  return options_.fault_kinds[pick(rng_)];
}

bool valid_fault(std::string_view spec) {
  static const std::set<std::string, std::less<>> kKinds = {
      "reset",        "close",     "malformed", "error-event", "truncate",   "stall",
      "slow-headers", "big-event", "status",    "video-fail",  "close-after"};
  const Fault f = parse_fault(spec);
  return kKinds.contains(f.kind);
}

bool MockServer::inject_error() {
  if (options_.error_rate <= 0) return false;
  std::lock_guard lock(rng_mu_);
  const bool hit = std::uniform_real_distribution<double>(0.0, 100.0)(rng_) < options_.error_rate;
  return hit;
}

template <typename Socket>
void MockServer::start_session(Socket s) {
  if (tls_) {
    using TlsStream = asio::ssl::stream<Socket>;
    auto session = std::make_shared<Session<TlsStream>>(*this, TlsStream(std::move(s), *tls_));
    asio::co_spawn(
        io_, [session]() { return session->serve(); }, asio::detached);
  } else {
    auto session = std::make_shared<Session<Socket>>(*this, std::move(s));
    asio::co_spawn(
        io_, [session]() { return session->serve(); }, asio::detached);
  }
}

void MockServer::run() {
  // One accept loop for either listener; errors such as EMFILE keep the server serving the
  // connections it has.
  auto accept_loop = [this](auto& acceptor) -> asio::awaitable<void> {
    for (;;) {
      beast::error_code ec;
      auto s = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        if (ec == asio::error::operation_aborted) co_return;
        continue;
      }
      if constexpr (std::is_same_v<decltype(s), tcp::socket>) s.set_option(tcp::no_delay(true), ec);
      start_session(std::move(s));
    }
  };
  if (unix_acceptor_.is_open()) {
    asio::co_spawn(io_, accept_loop(unix_acceptor_), asio::detached);
  } else {
    asio::co_spawn(io_, accept_loop(acceptor_), asio::detached);
  }
  asio::signal_set signals(io_, SIGINT, SIGTERM);
  signals.async_wait([this](const beast::error_code& ec, int) {
    if (!ec) stop();
  });
  std::vector<std::thread> threads;
  for (int i = 1; i < options_.workers; ++i) threads.emplace_back([this] { io_.run(); });
  io_.run();
  for (auto& t : threads) t.join();
}

void MockServer::stop() {
  asio::post(io_, [this] {
    beast::error_code ec;
    acceptor_.close(ec);
    unix_acceptor_.close(ec);
    io_.stop();
  });
}

}  // namespace inferperf::mock
