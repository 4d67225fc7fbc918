// Endpoint protocols: how a turn becomes a request body and how a response event is decoded.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/endpoint_type.hpp"
#include "core/error.hpp"
#include "dataset/conversation.hpp"

namespace inferperf::endpoint {

// What an endpoint's successful responses deliver besides (or instead of) text.
enum class OutputKind { kText, kEmbeddings, kRankings, kImages, kVideo };

// The endpoint table (docs/endpoints.md): paths, streaming, which metrics apply, the console title.
struct EndpointInfo {
  config::EndpointType type;
  const char* name;
  const char* path;         // default path without the leading '/'; "" = none (--endpoint needed)
  const char* stream_path;  // path when streaming, "" = the same
  bool streams;             // the server can stream responses
  bool produces_tokens;     // token metrics (TTFT, ITL, OSL, ...) apply
  bool tokenizes_input;     // ISL applies
  OutputKind output;
  const char* title;  // console table title
};

const EndpointInfo& endpoint_info(config::EndpointType type);

// A video generation job as the server reports it (POST /v1/videos and every poll).
struct VideoJob {
  std::string id;
  std::string status;  // queued | in_progress | completed | failed
  std::optional<double> progress;
  std::optional<double> inference_time_s;
  std::optional<double> peak_memory_mb;
  std::string error;  // failed: the server's message
  std::string url;    // completed: where the video is (optional; --download-video-content)
};

// The token usage one response object reported (vendor names mapped by decode_util's read_usage).
struct Usage {
  std::optional<std::int64_t> prompt_tokens;
  std::optional<std::int64_t> completion_tokens;
  std::optional<std::int64_t> total_tokens;
  std::optional<std::int64_t> reasoning_tokens;
  std::optional<std::int64_t> prompt_cache_read_tokens;
  std::optional<std::int64_t> prompt_cache_write_tokens;
  std::optional<std::int64_t> prompt_cache_miss_tokens;
  std::optional<std::int64_t> tool_use_prompt_tokens;
  std::optional<double> prompt_audio_seconds;  // seconds, not tokens
  std::optional<std::int64_t> prompt_audio_tokens;
  std::optional<std::int64_t> completion_audio_tokens;
  std::optional<std::int64_t> accepted_prediction_tokens;
  std::optional<std::int64_t> rejected_prediction_tokens;
  bool any() const {
    return prompt_tokens || completion_tokens || total_tokens || reasoning_tokens ||
           prompt_cache_read_tokens || prompt_cache_write_tokens || prompt_cache_miss_tokens ||
           tool_use_prompt_tokens || prompt_audio_seconds || prompt_audio_tokens ||
           completion_audio_tokens || accepted_prediction_tokens || rejected_prediction_tokens;
  }
  bool operator==(const Usage&) const = default;
};

// Per-request timings the server measured itself (endpoint/server_timings.hpp decodes them).
struct ServerTimings {
  std::optional<double> prefill_ms;              // prompt processing (llama.cpp prompt_ms)
  std::optional<double> decode_ms;               // token generation (llama.cpp predicted_ms)
  std::optional<std::int64_t> prompt_tokens;     // prompt tokens processed (llama.cpp prompt_n)
  std::optional<std::int64_t> predicted_tokens;  // tokens generated (llama.cpp predicted_n)
  std::optional<std::int64_t> cached_tokens;     // prompt tokens reused from cache (cache_n)
  std::string source;                            // the decoder that produced it, e.g. "llama.cpp"
};

// One tool-call fragment of a chat response: streamed deltas carry the call's index, its id and
// name once, and its arguments in pieces.
struct ToolCallDelta {
  std::int64_t index = 0;
  std::string id;
  std::string name;
  std::string arguments;
};

struct DecodedEvent {
  enum class Kind { kIgnored, kData, kDone, kError };
  Kind kind = Kind::kIgnored;
  std::string content;    // non-reasoning output text (tool-call argument text included)
  std::string reasoning;  // reasoning_content / reasoning
  std::optional<Usage> usage;
  std::optional<ServerTimings> server_timings;
  std::string finish_reason;
  std::string error_message;              // for kError: why the payload is not a valid response
  std::vector<ToolCallDelta> tool_calls;  // chat tool-call fragments (their argument text is
                                          // also at the end of `content`)
  // Non-text results this event delivered: embedding vectors, ranking scores, images. An event
  // with outputs is a content response even without text.
  std::int64_t outputs = 0;
  bool progress = false;        // a content response without output (a partial image)
  std::optional<VideoJob> job;  // video_generation: the job's state
};

struct BodyOptions {
  std::string model;
  bool streaming = false;
  bool include_usage = false;  // add stream_options.include_usage when streaming
  bool use_legacy_max_tokens = false;
  const std::vector<std::pair<std::string, nlohmann::json>>* extra = nullptr;
  std::string_view system_message;  // chat: sent first as a system message when not empty
  std::string_view user_context;    // chat: sent next as a user message when not empty
};

class ChunkMemo;  // chunk_scan.hpp

class Endpoint {
 public:
  explicit Endpoint(config::EndpointType type) : info_(&endpoint_info(type)) {}
  virtual ~Endpoint() = default;
  const EndpointInfo& info() const { return *info_; }
  std::string default_path() const { return info_->path; }
  // The request path (no leading '/') for a streaming or non-streaming run.
  std::string path(bool streaming) const {
    return streaming && *info_->stream_path ? info_->stream_path : info_->path;
  }
  virtual nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                            const BodyOptions& options) const = 0;
  // Decodes one SSE `data` payload or one whole non-streaming body.
  virtual DecodedEvent decode(std::string_view payload) const = 0;
  // decode() for the SSE payloads of one stream, `memo` kept by the caller from one to the next:
  // endpoints whose chunks share a frame (chat, completions) read the text through it.
  virtual DecodedEvent decode_streamed(std::string_view payload, ChunkMemo& /*memo*/) const {
    return decode(payload);
  }

 private:
  const EndpointInfo* info_;
};

// The endpoint for `type`. `extra` (--extra-inputs) configures the template endpoint
// (payload_template, response_field); errors are bad configuration (a template that is not
// found or does not render JSON).
core::Result<std::unique_ptr<Endpoint>> create_endpoint(
    config::EndpointType type, const std::vector<std::pair<std::string, nlohmann::json>>& extra);
// The same for endpoints that need no configuration (every type but template).
std::unique_ptr<Endpoint> make_endpoint(config::EndpointType type);

// Why endpoint `type` cannot send `turn`, or "" when it can: image_edit needs an image it can
// upload (or a verbatim payload) and no row `extra` over the fields it sets; raw needs a verbatim
// payload. Checked for every turn before the run, so no request fails to build mid-run.
std::string turn_input_problem(config::EndpointType type, const dataset::Turn& turn);

// Headers the protocol needs besides the user's: Authorization: Bearer from --api-key, or for
// messages (Anthropic) x-api-key and anthropic-version, each unless the user set it with -H.
std::vector<std::pair<std::string, std::string>> protocol_headers(
    config::EndpointType type, const std::string& api_key,
    const std::vector<std::pair<std::string, std::string>>& user_headers);

// The body for the last turn of `history` (turns with their text in place): a row's `payload`
// verbatim with its output length applied, otherwise the endpoint's body; the row's `extra` is
// merged last, over --extra-inputs.
nlohmann::ordered_json build_request_body(const Endpoint& endpoint,
                                          const std::vector<dataset::Turn>& history,
                                          const BodyOptions& options);

// Warmup requests only (AIPerf 0.11, #1040): makes `body` cache-distinct from the profiling
// requests. chat / chat_embeddings: a leading system message `warmup`, or `warmup\n<text>` when the
// body starts with a system message (list content: a leading text part `warmup`); messages /
// responses: the same on the `system` / `instructions` field; completions: each prompt string gets
// `warmup\n` in front. Other endpoint types are left alone. True when the body was changed.
bool apply_warmup_marker(nlohmann::ordered_json& body, config::EndpointType type);

// Sets the body's output length to `n`: under the key the body already uses (max_tokens,
// max_completion_tokens, max_output_tokens, parameters.max_new_tokens), else the endpoint's own
// (chat: max_completion_tokens, or max_tokens with `legacy` or a "prompt" body; completions and
// messages: max_tokens; responses: max_output_tokens; huggingface_generate:
// parameters.max_new_tokens). With `cap`, a smaller value already there is kept. False when the
// endpoint has no output length (embeddings, rankings, images, video, template).
bool set_output_limit(nlohmann::ordered_json& body, config::EndpointType type, bool legacy, int n,
                      bool cap);

// Path resolution as AIPerf: custom endpoint wins; a duplicate "v1/" after a base ending in /v1 is
// dropped; with no path at all (raw, template) the base URL's own path is used as it is.
std::string join_path(std::string_view base_path, std::string_view custom_endpoint,
                      std::string_view default_path);

}  // namespace inferperf::endpoint
