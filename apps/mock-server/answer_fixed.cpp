// Embeddings, rankings and image retrieval: one whole body after base + per-unit x units.
#include <optional>
#include <string>

#include "answers.hpp"
#include "http_text.hpp"
#include "routes.hpp"

namespace inferperf::mock::detail {

namespace asio = boost::asio;

// A fixed route's body and its latency model (--*-base-latency-ms, --*-per-*-latency-ms). In a
// named namespace: it lives in a coroutine frame.
struct FixedAnswer {
  FixedReply reply;
  std::optional<RouteError> err;
  double base_ms = 0, per_unit_ms = 0;
};

namespace {

FixedAnswer fixed_answer(const ServerState& server, std::string_view body, Route route) {
  const auto& o = server.options;
  const auto* tok = server.tokenizer.get();
  FixedAnswer a;
  try {
    switch (route) {
      case Route::kEmbeddings:
        a.err = embeddings_reply(body, tok, a.reply);
        a.base_ms = o.embedding_base_latency_ms;
        a.per_unit_ms = o.embedding_per_input_latency_ms;
        break;
      case Route::kImageRetrieval:
        a.err = image_retrieval_reply(body, a.reply);
        a.base_ms = o.image_retrieval_base_latency_ms;
        a.per_unit_ms = o.image_retrieval_per_image_latency_ms;
        break;
      default:
        a.err = ranking_reply(body,
                              route == Route::kRankingNim   ? RankingFlavor::kNim
                              : route == Route::kRankingTei ? RankingFlavor::kTei
                                                            : RankingFlavor::kCohere,
                              tok, a.reply);
        a.base_ms = o.ranking_base_latency_ms;
        a.per_unit_ms = o.ranking_per_passage_latency_ms;
    }
  } catch (const std::exception& e) {
    a.err = route_error(400, std::string("invalid request field: ") + e.what());
  }
  return a;
}

}  // namespace

asio::awaitable<bool> answer_fixed(Exchange& x, Route route) {
  const auto start = Clock::now();
  const Fault fault = request_fault(x);
  if (auto done = co_await fault_gate(x, fault, start)) co_return *done;
  const FixedAnswer a = fixed_answer(x.server, x.req.body(), route);
  if (a.err) co_return co_await fail_status(x, a.err->status, a.err->body);
  if (!x.server.options.fast) {
    co_await x.conn.sleep_until(
        start + ms_duration(a.base_ms + a.per_unit_ms * static_cast<double>(a.reply.units)));
  }
  co_await x.conn.send(plain_response(200, "application/json", a.reply.body, x.keep));
  co_return x.keep;
}

}  // namespace inferperf::mock::detail
