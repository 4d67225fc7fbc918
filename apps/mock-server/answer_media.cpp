// /v1/images/generations (whole, or partial images streamed over the steps) and POST /v1/videos
// (a job polled through the GET routes).
#include <fmt/format.h>

#include <ctime>
#include <optional>
#include <string>

#include "answers.hpp"
#include "http_text.hpp"
#include "routes.hpp"
#include "token_stream.hpp"

namespace inferperf::mock::detail {

namespace asio = boost::asio;

namespace {

// The body of a media request, parsed with `parse` into `out`.
template <typename Req, typename Parse>
std::optional<RouteError> parse_media(std::string_view body, Req& out, Parse parse) {
  try {
    return parse(body, out);
  } catch (const std::exception& e) {
    return route_error(400, std::string("invalid request field: ") + e.what());
  }
}

}  // namespace

// TTFT + kImageSteps x ITL; streamed partial images spread over the steps.
asio::awaitable<bool> answer_images(Exchange& x) {
  const auto start = Clock::now();
  x.created = std::time(nullptr);
  const Fault fault = request_fault(x);
  if (auto done = co_await fault_gate(x, fault, start)) co_return *done;
  ImageRequest r;
  if (const auto err = parse_media(x.req.body(), r, parse_image_request))
    co_return co_await fail_status(x, err->status, err->body);
  const auto p =
      static_cast<std::int64_t>(tokenize_pieces(r.prompt, x.server.tokenizer.get()).size());
  const Timing tm = timing_from(x.server.options, start);
  const auto done_at = tm.first + tm.itl * kImageSteps;
  if (!r.stream) {
    co_await x.conn.sleep_until(done_at);
    co_await x.conn.send(
        plain_response(200, "application/json", image_whole_json(r, x.created, p), x.keep));
    co_return x.keep;
  }
  x.streamed = true;
  co_await x.conn.send(sse_head(x.keep));
  if (x.conn.write_failed()) co_return false;
  for (int k = 0; k < r.partial_images; ++k) {
    co_await x.conn.sleep_until(tm.first +
                                tm.itl * ((k + 1) * kImageSteps / (r.partial_images + 1)));
    std::string out = chunk(image_partial_event(r, k, x.created));
    if (k == 0 && fault.kind == "error-event") {
      x.server.counters.errors_injected.fetch_add(1);
      out += chunk(
          "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"mock_fault\","
          "\"message\":\"mock fault error-event\"}}\n\n");
      out += "0\r\n\r\n";
      co_await x.conn.send(std::move(out));
      co_return x.keep && !x.conn.write_failed();
    }
    co_await x.conn.send(std::move(out));
    if (x.conn.write_failed()) co_return false;
  }
  co_await x.conn.sleep_until(done_at);
  co_await x.conn.send(chunk(image_completed_event(r, x.created, p)) + "0\r\n\r\n");
  co_return x.keep && !x.conn.write_failed();
}

// A job that is queued for TTFT, then runs 20 x ITL (X-Mock-Fault: video-fail makes it end
// failed).
asio::awaitable<bool> answer_video_create(Exchange& x) {
  const auto start = Clock::now();
  const Fault fault = request_fault(x);
  if (auto done = co_await fault_gate(x, fault, start)) co_return *done;
  VideoRequest r;
  const auto content_type = header(x.req, "Content-Type").value_or("");
  if (const auto err = parse_media(x.req.body(), r, [&](std::string_view b, VideoRequest& v) {
        return parse_video_request(b, v, content_type);
      }))
    co_return co_await fail_status(x, err->status, err->body);
  const Timing tm = timing_from(x.server.options, start);
  if (fault.kind == "video-fail") x.server.counters.errors_injected.fetch_add(1);
  const std::string body = x.server.videos.create(r, start, std::time(nullptr), tm.first - start,
                                                  tm.itl * 20, fault.kind == "video-fail");
  co_await x.conn.send(plain_response(200, "application/json", body, x.keep));
  co_return x.keep;
}

}  // namespace inferperf::mock::detail
