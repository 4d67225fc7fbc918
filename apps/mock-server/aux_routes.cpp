#include "aux_routes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string_view>

#include "answers.hpp"
#include "content.hpp"
#include "core/version.hpp"
#include "http_text.hpp"
#include "metric_pages.hpp"
#include "routes.hpp"

namespace inferperf::mock::detail {

namespace {

namespace http = boost::beast::http;

constexpr std::string_view kRouteList =
    R"({"name":"inferperf-mock-server","routes":["/v1/chat/completions","/v1/completions",)"
    R"("/v1/models","/health","/version","/metrics","/vllm/metrics","/sglang/metrics","/trtllm/metrics",)"
    R"("/dynamo_frontend/metrics","/dynamo_component/prefill/metrics",)"
    R"("/dynamo_component/decode/metrics","/dcgm{N}/metrics","/v1/embeddings","/v1/ranking",)"
    R"("/rerank","/v2/rerank","/v1/infer","/v1/image/infer","/generate","/generate_stream",)"
    R"("/rag/api/prompt","/v1/images/generations","/v1/videos","/v1/videos/{id}",)"
    R"("/v1/videos/{id}/content","/v1/responses","/v1/messages","/v1/images/edits"]})";

constexpr std::string_view kPromText = "text/plain; version=0.0.4; charset=utf-8";

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

std::string models_list(const ServerState& server, bool keep) {
  const auto& o = server.options;
  if (o.disable_models_endpoint)
    return plain_response(404, "application/json", R"({"detail":"Not Found"})", keep);
  if (!server.elapsed_since_start(o.models_ready_delay_s))
    return plain_response(503, "application/json", R"({"detail":"Model is loading"})", keep);
  return plain_response(
      200, "application/json",
      fmt::format(
          R"({{"object":"list","data":[{{"id":"{}","object":"model","created":{},"owned_by":"inferperf-mock"}}]}})",
          json_escape(o.model_name), std::time(nullptr)),
      keep);
}

// GET /v1/videos/{id} (the job) and /v1/videos/{id}/content (the video once completed).
std::string video_job(ServerState& server, const std::string& path, bool keep) {
  std::string_view id = std::string_view(path).substr(std::string_view("/v1/videos/").size());
  const bool content = id.ends_with("/content");
  if (content) id.remove_suffix(std::string_view("/content").size());
  const auto not_found = route_error(404, fmt::format("video '{}' not found", id));
  if (content) {
    switch (server.videos.content(id, Clock::now())) {
      case VideoJobs::ContentState::kUnknown:
        return plain_response(404, "application/json", not_found.body, keep);
      case VideoJobs::ContentState::kNotReady: {
        const auto e = route_error(409, "video is not completed");
        return plain_response(409, "application/json", e.body, keep);
      }
      case VideoJobs::ContentState::kReady:
        server.counters.video_downloads.fetch_add(1);
        return plain_response(200, "video/mp4", video_mp4_bytes(), keep);
    }
  }
  if (auto job = server.videos.get(id, Clock::now()))
    return plain_response(200, "application/json", *job, keep);
  return plain_response(404, "application/json", not_found.body, keep);
}

// GET /v1/models and /v1/videos/{id}[/content], behind the API key.
std::string gated_get(ServerState& server, const Request& req, const std::string& path, bool keep) {
  const auto& o = server.options;
  if (auto e = check_api_key(o, header(req, o.auth_header_name)))
    return plain_response(e->status, "application/json", e->body, keep);
  if (path == "/v1/models") return models_list(server, keep);
  return video_job(server, path, keep);
}

// The engine-flavoured pages, or nullopt when `path` is not one of them.
std::optional<std::string> engine_page(ServerState& server, const std::string& path) {
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
  const EnginePageInfo info{server.options.model_name, server.start_unix_s};
  ServedSnapshot snap = server.served.snapshot();
  // Requests queued for a --slots slot are the engine's waiting queue, not its running batch.
  snap.waiting = std::min<std::int64_t>(snap.running, server.slots.queued());
  snap.running -= snap.waiting;
  if (fn) return fn(snap, info);
  return dynamo_component_metrics_page(snap, info, path == "/dynamo_component/prefill/metrics");
}

// The mock's own /metrics: its counters, then its latency histograms.
std::string metrics_text(ServerState& server) {
  const auto& c = server.counters;
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
      "inferperf_mock_connections_total {}\n"
      "# HELP inferperf_mock_warmup_marked_total Chat/completions requests carrying the warmup "
      "marker.\n"
      "# TYPE inferperf_mock_warmup_marked_total counter\n"
      "inferperf_mock_warmup_marked_total {}\n",
      c.requests.load(), c.in_flight.load(), c.max_in_flight.load(), c.errors_injected.load(),
      c.output_tokens.load(), c.connections.load(), c.connections_total.load(),
      c.warmup_marked.load());
  return text + media_counters_page(c) + server.media.page() +
         mock_histograms_page(server.served.snapshot());
}

// Hub emulation: /ORG/NAME/resolve/REV/FILE -> HUB_DIR/ORG/NAME/FILE.
std::string hub_file(const MockOptions& o, const Request& req, const std::string& path, bool keep) {
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
  if (repo.empty() || repo.front() == '/' || repo.find("..") != std::string::npos || file.empty() ||
      file.front() == '/' || file.find("..") != std::string::npos ||
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

}  // namespace

std::string get_response(ServerState& server, const Request& req, const std::string& path,
                         bool keep) {
  const auto& o = server.options;
  if (!o.hub_dir.empty() && path.find("/resolve/") != std::string::npos)
    return hub_file(o, req, path, keep);
  if (path == "/health")
    return plain_response(200, "application/json", R"({"status":"healthy"})", keep);
  // vLLM's version route, so the client's server_info.json probe finds something to name.
  if (path == "/version")
    return plain_response(200, "application/json",
                          fmt::format(R"({{"version":"{}"}})", inferperf::kVersion), keep);
  if (path == "/v1/models" || path.starts_with("/v1/videos/"))
    return gated_get(server, req, path, keep);
  if (path == "/metrics")
    return plain_response(200, "text/plain; version=0.0.4", metrics_text(server), keep);
  if (auto page = engine_page(server, path)) return plain_response(200, kPromText, *page, keep);
  if (auto node = dcgm_node(path)) {
    const auto now = Clock::now();
    const double load = o.dcgm_auto_load ? server.served.load(now, o.dcgm_min_throughput) : 0.0;
    return plain_response(200, kPromText, server.dcgm.scrape(*node, load, now), keep);
  }
  if (path == "/") return plain_response(200, "application/json", kRouteList, keep);
  return plain_response(404, "application/json", R"({"detail":"Not Found"})", keep);
}

}  // namespace inferperf::mock::detail
