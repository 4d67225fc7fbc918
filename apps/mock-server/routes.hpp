// Request parsers and response builders of the mock's non-OpenAI-chat routes: embeddings,
// rankings, image retrieval (routes_retrieval.cpp), TGI and SOLIDO RAG (routes_generate.cpp),
// image generation (routes_images.cpp), video jobs (routes_video.cpp), the OpenAI Responses API
// (routes_responses.cpp), Anthropic Messages (routes_messages.cpp) and the request gates: API key,
// strict model (routes_common.cpp). Pure functions and small classes, so every format is
// unit-tested without sockets; server.cpp only adds timing and I/O.
#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "content.hpp"
#include "mock_options.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::mock {

// An answer that is not the route's normal one: status and JSON body.
struct RouteError {
  int status = 400;
  std::string body;
};

// {"error":{"message":M,"type":T,"code":S}} (vLLM's shape, as the chat routes' 400s).
RouteError route_error(int status, std::string_view message);

// 64-bit FNV-1a, stable across builds.
std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 1469598103934665603ULL);

// ---- Gates (routes_common.cpp) ----

// --api-key: the header value must be "Bearer KEY" for Authorization, else exactly KEY. nullopt
// when the key is unset or matches; else the 401.
std::optional<RouteError> check_api_key(const MockOptions& o,
                                        std::optional<std::string_view> value);
// --strict-model: a body whose "model" is a string other than --model-name is a 404 as vLLM
// answers it. Bodies that are not JSON objects or have no string "model" pass (the route's own
// validation answers them).
std::optional<RouteError> check_model(const MockOptions& o, std::string_view body);

// ---- Embeddings, rankings, image retrieval (routes_retrieval.cpp) ----

// A fixed-latency answer: the body, and the count that multiplies the per-unit latency (inputs,
// passages or images).
struct FixedReply {
  std::string body;
  std::int64_t units = 0;
  std::int64_t prompt_tokens = 0;
};

inline constexpr std::size_t kEmbeddingDim = 768;
// Unit-length, seeded by the text's hash: the same text always gives the same vector.
std::vector<float> embedding_vector(std::string_view text, std::size_t dim = kEmbeddingDim);
// POST /v1/embeddings {"model","input": string | [strings]}.
std::optional<RouteError> embeddings_reply(std::string_view body, const tokenizer::Tokenizer* tok,
                                           FixedReply& out);

enum class RankingFlavor { kNim, kTei, kCohere };
// A deterministic logit in [-10, 10] for (query, passage); word overlap raises it.
double ranking_logit(std::string_view query, std::string_view passage);
// NIM POST /v1/ranking, TEI POST /rerank, Cohere POST /v2/rerank.
std::optional<RouteError> ranking_reply(std::string_view body, RankingFlavor flavor,
                                        const tokenizer::Tokenizer* tok, FixedReply& out);
// NIM image retrieval POST /v1/infer and /v1/image/infer.
std::optional<RouteError> image_retrieval_reply(std::string_view body, FixedReply& out);

// ---- TGI and SOLIDO RAG (routes_generate.cpp) ----

// TGI {"inputs": text, "parameters": {"max_new_tokens", "min_new_tokens"?, ...}}: a
// completions-style request (no reasoning).
std::optional<RouteError> parse_tgi_request(std::string_view body, GenerationRequest& out);
// Token id of a token text (stable hash, < 32000).
std::int64_t tgi_token_id(std::string_view text);
// One /generate_stream event's data JSON; `details` only on the last event.
std::string tgi_stream_event(std::size_t index, std::string_view text, bool last,
                             std::string_view generated_text, std::string_view finish_reason,
                             std::size_t generated_tokens);
// "length" stays "length"; the chat rules' "stop" is TGI's "eos_token".
std::string tgi_finish_reason(std::string_view chat_finish);
// SOLIDO RAG {"query":[texts],"filters":{...},"inference_model":m,"stream"?,"max_tokens"?}: a
// chat request.
std::optional<RouteError> parse_rag_request(std::string_view body, GenerationRequest& out);

// ---- Image generation (routes_images.cpp) ----

// A small valid PNG (stored deflate, real CRCs): w x h pixels of one colour from `seed`.
std::string png_image(std::uint64_t seed, int w = 8, int h = 8);

struct ImageRequest {
  std::string prompt, model;
  std::string size = "1024x1024";
  std::string quality = "medium";
  std::string output_format = "png";
  int n = 1;
  bool stream = false;
  int partial_images = 2;  // streamed partial images (0-3); default 2 when the body has none
};
inline constexpr int kImageSteps = 8;  // the job takes TTFT + kImageSteps x ITL
std::optional<RouteError> parse_image_request(std::string_view body, ImageRequest& out);
// Output tokens as gpt-image-1 bills a 1024x1024 image: low 272, medium 1056, high 4160 (per
// image).
std::int64_t image_output_tokens(const ImageRequest& r);
std::string image_usage_json(const ImageRequest& r, std::int64_t prompt_tokens);
std::string image_whole_json(const ImageRequest& r, std::int64_t created,
                             std::int64_t prompt_tokens);
// "event: image_generation.partial_image\ndata: {...}\n\n"
std::string image_partial_event(const ImageRequest& r, int index, std::int64_t created);
// "event: image_generation.completed\ndata: {...}\n\n"
std::string image_completed_event(const ImageRequest& r, std::int64_t created,
                                  std::int64_t prompt_tokens);

// POST /v1/images/edits (OpenAI images edit API): multipart/form-data with `prompt`, the picture
// as one or more `image` / `image[]` file parts (PNG, JPEG, WebP, GIF or BMP bytes) or an http(s)
// `url` field, and the image generation fields. `images` counts the file parts received.
struct ImageEditRequest {
  ImageRequest image;
  int images = 0;
  bool url = false;
};
std::optional<RouteError> parse_image_edit_request(std::string_view content_type,
                                                   std::string_view body, ImageEditRequest& out);

// ---- Video jobs (routes_video.cpp) ----

struct VideoRequest {
  std::string prompt, model;
  std::string seconds = "4";
  std::string size = "720x1280";
  std::string quality = "standard";
};
// A JSON body, or with a multipart/form-data `content_type` its form fields (AIPerf 0.11 sends
// video jobs as forms).
std::optional<RouteError> parse_video_request(std::string_view body, VideoRequest& out,
                                              std::string_view content_type = {});
// The bytes GET /v1/videos/{id}/content serves: a minimal MP4 'ftyp' box.
std::string video_mp4_bytes();

// The job store: a job is `queued` for `queue` after creation, `in_progress` for `run` (progress
// 0..99 by elapsed time), then `completed` (or `failed` when created with fail=true). Times are
// passed in, so tests drive the clock. Thread-safe; keeps the newest 100000 jobs.
class VideoJobs {
 public:
  using Clock = std::chrono::steady_clock;
  enum class ContentState { kUnknown, kNotReady, kReady };
  // Returns the new job's JSON (status queued).
  std::string create(const VideoRequest& r, Clock::time_point now, std::int64_t now_unix,
                     Clock::duration queue, Clock::duration run, bool fail);
  // The job's JSON at `now`; nullopt for an unknown id.
  std::optional<std::string> get(std::string_view id, Clock::time_point now) const;
  ContentState content(std::string_view id, Clock::time_point now) const;

 private:
  struct Job {
    std::string id;
    VideoRequest req;
    Clock::time_point created;
    std::int64_t created_unix = 0;
    Clock::duration queue{}, run{};
    bool fail = false;
  };
  static std::string to_json(const Job& j, Clock::time_point now);
  mutable std::mutex mu_;
  std::map<std::string, Job, std::less<>> jobs_;
  std::deque<std::string> order_;
  std::uint64_t next_ = 0;
};

// ---- OpenAI Responses API (routes_responses.cpp) ----

// {"model","input": string | [items],"instructions"?,"max_output_tokens"?,"stream"?}; reasoning
// as chat (model name with gpt-oss or qwen; "reasoning":{"effort"} or "reasoning_effort").
std::optional<RouteError> parse_responses_request(std::string_view body, GenerationRequest& out);

// Builds the streamed events of one response in order; every event is "event: T\ndata: {...}\n\n"
// with a growing sequence_number. Reasoning deltas (if any) come before the text deltas.
class ResponsesStream {
 public:
  ResponsesStream(std::string id, std::string model, std::int64_t created,
                  const GenerationPlan& plan);
  std::string head();  // response.created, response.in_progress, first output_item.added (+part)
  std::string delta(bool reasoning, std::string_view text);
  std::string tail();  // ...done events and response.completed
  // The full response object (status completed, output, usage).
  std::string response_json(std::string_view status, bool with_output) const;

 private:
  std::string event(std::string_view type, std::string body_members);
  std::string open_message();
  std::string close_reasoning();
  std::string id_, msg_id_, rs_id_, model_;
  std::int64_t created_;
  const GenerationPlan& plan_;
  std::int64_t seq_ = 0;
  bool reasoning_open_ = false, message_open_ = false;
};

// ---- Anthropic Messages (routes_messages.cpp) ----

// RouteError bodies are Anthropic's {"type":"error","error":{"type":...,"message":...}}.
RouteError anthropic_error(int status, std::string_view type, std::string_view message);
std::optional<RouteError> parse_messages_request(std::string_view body, bool has_version_header,
                                                 GenerationRequest& out);
std::string anthropic_stop_reason(std::string_view chat_finish);
std::string messages_whole_json(std::string_view id, std::string_view model,
                                const GenerationPlan& plan);

class MessagesStream {
 public:
  MessagesStream(std::string id, std::string model, const GenerationPlan& plan);
  std::string head();  // message_start, first content_block_start, ping
  std::string delta(bool reasoning, std::string_view text);
  std::string tail();  // content_block_stop, message_delta, message_stop

 private:
  std::string id_, model_;
  const GenerationPlan& plan_;
  int block_ = 0;
  bool in_thinking_ = false;
};

}  // namespace inferperf::mock
