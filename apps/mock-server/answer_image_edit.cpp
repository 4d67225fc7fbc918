// POST /v1/images/edits: the form parsed and counted, then an image generation answer after
// TTFT + kImageSteps x ITL (edits do not stream).
#include <ctime>

#include "answers.hpp"
#include "http_text.hpp"
#include "routes.hpp"
#include "server_state.hpp"
#include "token_stream.hpp"

namespace inferperf::mock::detail {

boost::asio::awaitable<bool> answer_image_edit(Exchange& x) {
  const auto start = Clock::now();
  x.created = std::time(nullptr);
  const Fault fault = request_fault(x);
  if (auto done = co_await fault_gate(x, fault, start)) co_return *done;
  ImageEditRequest r;
  std::optional<RouteError> err;
  try {
    err = parse_image_edit_request(header(x.req, "Content-Type").value_or(""), x.req.body(), r);
  } catch (const std::exception& e) {
    err = route_error(400, std::string("invalid request field: ") + e.what());
  }
  if (err) co_return co_await fail_status(x, err->status, err->body);
  if (!x.preflight) {
    x.server.counters.image_edits.fetch_add(1);
    x.server.counters.image_edit_files.fetch_add(r.images);
  }
  const auto p =
      static_cast<std::int64_t>(tokenize_pieces(r.image.prompt, x.server.tokenizer.get()).size());
  const Timing tm = timing_from(x.server.options, start);
  co_await x.conn.sleep_until(tm.first + tm.itl * kImageSteps);
  co_await x.conn.send(
      plain_response(200, "application/json", image_whole_json(r.image, x.created, p), x.keep));
  co_return x.keep;
}

std::string media_counters_page(const MockCounters& c) {
  return "# HELP inferperf_mock_image_edits_total Image edit requests answered (their forms "
         "parsed).\n"
         "# TYPE inferperf_mock_image_edits_total counter\n"
         "inferperf_mock_image_edits_total " +
         std::to_string(c.image_edits.load()) +
         "\n"
         "# HELP inferperf_mock_image_edit_files_total Image file parts the edits uploaded.\n"
         "# TYPE inferperf_mock_image_edit_files_total counter\n"
         "inferperf_mock_image_edit_files_total " +
         std::to_string(c.image_edit_files.load()) +
         "\n"
         "# HELP inferperf_mock_video_downloads_total Finished videos downloaded.\n"
         "# TYPE inferperf_mock_video_downloads_total counter\n"
         "inferperf_mock_video_downloads_total " +
         std::to_string(c.video_downloads.load()) + "\n";
}

}  // namespace inferperf::mock::detail
