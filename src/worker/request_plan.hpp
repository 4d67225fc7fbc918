// Everything a worker needs to turn a credit into an HTTP request; built once before the run.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dataset/conversation.hpp"
#include "endpoint/endpoint.hpp"
#include "transport/connection.hpp"
#include "transport/http_exchange.hpp"
#include "transport/server_behaviour.hpp"
#include "transport/url.hpp"

namespace inferperf::worker {

// One --url: where its connections go and the request line's path (+ query).
struct Target {
  transport::BaseUrl url;
  std::string path;
  // What the run learns about this server, shared by every worker's pool for it (null: each pool
  // keeps its own).
  std::shared_ptr<transport::ServerBehaviour> behaviour;
};

// How requests share connections: a keep-alive pool shared by all (pooled), a connection per
// request (never), or a connection per session (sticky-user-sessions).
enum class ConnectionReuse { kPooled, kNever, kStickyUserSessions };

struct RequestPlan {
  std::vector<Target> targets;  // a session talks to targets[credit.url_index]
  std::vector<std::pair<std::string, std::string>> headers;  // user headers and auth
  // --session-header: the name the session's correlation id is sent under.
  std::string session_header = "X-Correlation-ID";
  bool streaming = false;
  double request_timeout_s = 21600.0;
  const endpoint::Endpoint* endpoint = nullptr;
  const dataset::Dataset* dataset = nullptr;
  // One serialized first-turn body per conversation, or empty where it is built per request
  // (trace prompts assembled from hash-id blocks: huge traces never hold every prompt).
  std::vector<std::string> bodies;
  // For later turns, built on the worker from the session's history (user context per session).
  endpoint::BodyOptions body_options;
  // --connection-reuse-strategy: pooled | never | sticky-user-sessions.
  ConnectionReuse connection_reuse = ConnectionReuse::kPooled;
  // --export-level raw: keep each profiling request's exchange in its record (RequestRecord::raw).
  bool capture_raw = false;
  // --max-response-bytes / --max-sse-event-bytes: the most one response body (a stream's total
  // included) and one SSE event may carry; past either the request is one error record.
  std::uint64_t max_response_bytes = transport::kDefaultMaxResponseBytes;
  std::uint64_t max_sse_event_bytes = 16ull << 20;
  // video_generation: seconds between job polls (AIPERF_HTTP_VIDEO_POLL_INTERVAL).
  double video_poll_interval_s = 0.1;
  // --ssl-ca-file / --insecure / --unix-socket, and the client TLS context built from them once
  // (shared by every worker's pool; null when no --url is https://).
  transport::TransportOptions transport;
  std::shared_ptr<boost::asio::ssl::context> tls_context;
  // multipart/form-data bodies (image_edit, video_generation; --request-content-type): the JSON
  // body's members are sent as form fields (endpoint/multipart.hpp).
  bool multipart = false;
  // video_generation --download-video-content: each finished job's video is fetched before the
  // request ends (worker/video_download.hpp).
  bool download_video_content = false;
};

// The JSON body for the last turn of `history` (texts in place) of `conv`, and its compact text.
// `warmup`: a warmup-phase request, whose body carries the warmup marker
// (endpoint::apply_warmup_marker); warmup bodies are always built per request, never prebuilt.
nlohmann::ordered_json build_body(const RequestPlan& plan, const dataset::Conversation& conv,
                                  const std::vector<dataset::Turn>& history, bool warmup = false);
std::string build_body_text(const RequestPlan& plan, const dataset::Conversation& conv,
                            const std::vector<dataset::Turn>& history, bool warmup = false);

// What every POST to one target repeats, assembled once (a worker keeps one per target): a
// request is then its two ids, content type, length and body appended between these.
struct RequestHead {
  std::string start;    // "POST <path> HTTP/1.1\r\nHost: ...\r\n...X-Request-ID: "
  std::string session;  // "\r\n<--session-header>: "
  std::string rest;     // "\r\n", the user's headers, "Content-Type: "
  std::string accept;   // "\r\nAccept: ...\r\nContent-Length: "
};
RequestHead request_head(const RequestPlan& plan, const Target& target);

// Serializes the full HTTP/1.1 request for one body (its JSON text; with plan.multipart encoded
// as multipart/form-data, std::runtime_error when that fails). `head` must be request_head() of
// this same plan (its Accept and headers are the plan's).
std::string serialize_request(const RequestPlan& plan, const RequestHead& head,
                              const std::string& body, const std::string& x_request_id,
                              const std::string& x_correlation_id);
// The same, its head assembled for this one request.
std::string serialize_request(const RequestPlan& plan, const Target& target,
                              const std::string& body, const std::string& x_request_id,
                              const std::string& x_correlation_id);

// A GET for `path` (video job polls) with the same identity and user headers.
std::string serialize_get(const RequestPlan& plan, const Target& target, const std::string& path,
                          const std::string& x_request_id, const std::string& x_correlation_id);

// The poll path of video job `id`: the target's path + "/" + id, its query kept.
std::string video_job_path(const Target& target, const std::string& id);

}  // namespace inferperf::worker
