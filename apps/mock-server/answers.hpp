// The POST inference routes and the coroutines that answer them. Each takes the exchange after
// the gates (API key, readiness, strict model) and returns whether the connection may be kept.
#pragma once
#include <boost/asio/awaitable.hpp>

#include <string_view>

#include "connection.hpp"
#include "content.hpp"
#include "faults.hpp"

namespace inferperf::mock::detail {

enum class Route {
  kNone,
  kChat,
  kCompletions,
  kEmbeddings,
  kRankingNim,
  kRankingTei,
  kRankingCohere,
  kImageRetrieval,
  kTgi,
  kTgiStream,
  kRag,
  kImages,
  kVideos,
  kResponses,
  kMessages,
  kImageEdits,
};

// The route of a POST to `path`, or Route::kNone.
Route post_route(std::string_view path);

// OpenAI chat and completions (answer_openai.cpp).
boost::asio::awaitable<bool> answer_openai(Exchange& x, bool chat);
// A parsed chat/completions request (also SOLIDO RAG's), answered in the OpenAI formats.
boost::asio::awaitable<bool> answer_openai_plan(Exchange& x, const GenerationRequest& g,
                                                const Fault& fault, Clock::time_point start);
// The generation for `g`, with the share of its prompt the prefix cache held (the preflight's
// prompt is cached too, as a real server would).
GenerationPlan planned(ServerState& server, const GenerationRequest& g);

// TGI, RAG, Responses, Messages: the chat generator's plan and timing in other formats
// (answer_generation.cpp).
boost::asio::awaitable<bool> answer_generation(Exchange& x, Route route);

// Embeddings, rankings, image retrieval: base + per-unit x units, then the whole body
// (answer_fixed.cpp).
boost::asio::awaitable<bool> answer_fixed(Exchange& x, Route route);

// /v1/images/generations and POST /v1/videos (answer_media.cpp).
boost::asio::awaitable<bool> answer_images(Exchange& x);
boost::asio::awaitable<bool> answer_video_create(Exchange& x);
// POST /v1/images/edits, and the /metrics lines of the media counters (answer_image_edit.cpp).
boost::asio::awaitable<bool> answer_image_edit(Exchange& x);
std::string media_counters_page(const MockCounters& c);

}  // namespace inferperf::mock::detail
