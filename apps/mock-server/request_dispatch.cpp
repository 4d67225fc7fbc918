#include "request_dispatch.hpp"

#include <fmt/format.h>
#include <boost/beast/http/verb.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include "answers.hpp"
#include "aux_routes.hpp"
#include "http_text.hpp"
#include "routes.hpp"

namespace inferperf::mock::detail {

namespace asio = boost::asio;
namespace http = boost::beast::http;

Route post_route(std::string_view path) {
  static const std::pair<std::string_view, Route> kTable[] = {
      {"/v1/chat/completions", Route::kChat},
      {"/v1/completions", Route::kCompletions},
      {"/v1/embeddings", Route::kEmbeddings},
      {"/v1/ranking", Route::kRankingNim},
      {"/rerank", Route::kRankingTei},
      {"/v2/rerank", Route::kRankingCohere},
      {"/v1/infer", Route::kImageRetrieval},
      {"/v1/image/infer", Route::kImageRetrieval},
      {"/generate", Route::kTgi},
      {"/generate_stream", Route::kTgiStream},
      {"/rag/api/prompt", Route::kRag},
      {"/v1/images/generations", Route::kImages},
      {"/v1/images/edits", Route::kImageEdits},
      {"/v1/videos", Route::kVideos},
      {"/v1/responses", Route::kResponses},
      {"/v1/messages", Route::kMessages},
  };
  for (const auto& [p, r] : kTable)
    if (p == path) return r;
  return Route::kNone;
}

// API key, readiness, strict model, then the route.
asio::awaitable<bool> serve_inference(Exchange& x, Route route) {
  const auto& o = x.server.options;
  std::optional<RouteError> gate = check_api_key(o, header(x.req, o.auth_header_name));
  if (!gate && !x.server.elapsed_since_start(o.inference_ready_delay_s))
    gate = RouteError{503, R"({"detail":"Model is loading"})"};
  if (!gate) gate = check_model(o, x.req.body());
  if (gate) {
    co_await x.conn.send(plain_response(gate->status, "application/json", gate->body, x.keep));
    co_return x.keep;
  }
  switch (route) {
    case Route::kChat:
    case Route::kCompletions:
      co_return co_await answer_openai(x, route == Route::kChat);
    case Route::kEmbeddings:
    case Route::kRankingNim:
    case Route::kRankingTei:
    case Route::kRankingCohere:
    case Route::kImageRetrieval:
      co_return co_await answer_fixed(x, route);
    case Route::kImages:
      co_return co_await answer_images(x);
    case Route::kVideos:
      co_return co_await answer_video_create(x);
    case Route::kImageEdits:
      co_return co_await answer_image_edit(x);
    default:
      co_return co_await answer_generation(x, route);
  }
}

asio::awaitable<bool> answer_request(Exchange& x) {
  const Request& req = x.req;
  const std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  if (x.server.options.access_logs) {
    std::cerr << fmt::format(
        "{} {} {}\n", std::string_view(req.method_string().data(), req.method_string().size()),
        target, req.body().size());
  }
  if (req.method() == http::verb::get) {
    co_await x.conn.send(get_response(x.server, req, path, x.keep));
    co_return x.keep && !x.conn.write_failed();
  }
  const Route route = req.method() == http::verb::post ? post_route(path) : Route::kNone;
  if (route == Route::kNone) {
    co_await x.conn.send(
        plain_response(404, "application/json", R"({"detail":"Not Found"})", x.keep));
    co_return x.keep && !x.conn.write_failed();
  }
  // inferperf's preflight request (X-Inferperf-Preflight) is answered like any other but is
  // neither faulted nor counted: the mock's numbers describe the benchmark alone.
  x.preflight = header(req, "X-Inferperf-Preflight").has_value();
  if (x.server.token_log) {
    if (auto id = header(req, "X-Request-ID")) x.request_id = std::string(*id);
  }
  if (x.preflight) co_return co_await serve_inference(x, route) && !x.conn.write_failed();
  auto& c = x.server.counters;
  c.requests.fetch_add(1);
  const std::int64_t now_in = c.in_flight.fetch_add(1) + 1;
  std::int64_t prev = c.max_in_flight.load();
  while (now_in > prev && !c.max_in_flight.compare_exchange_weak(prev, now_in)) {
  }
  bool result = co_await serve_inference(x, route);
  c.in_flight.fetch_sub(1);
  co_return result && !x.conn.write_failed();
}

}  // namespace inferperf::mock::detail
