// Preflight: one real request before the run proves the server answers, so a wrong URL, an
// unknown model or a rejected body fails in seconds (exit 1) instead of a run full of errors.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "worker/request_plan.hpp"

namespace inferperf::app {

struct PreflightResult {
  bool ok = false;
  std::string message;  // why it failed, or a warning when it passed with a server error
  int attempts = 0;
};

// What answered the preflight request, as far as telling a web server from an API needs.
struct AnswerHead {
  int status = 0;  // 0: no response head arrived
  std::string reason, server, content_type;
  std::string body_start;        // the first bytes of the body (at most kAnswerBodyKept)
  std::uint64_t body_bytes = 0;  // the whole body's size, as far as it was read
};
inline constexpr std::size_t kAnswerBodyKept = 512;

// An HTML page: a text/html (or XHTML) content type, or a body that starts with <!DOCTYPE or
// <html (case-insensitive, after white space).
bool is_html_answer(const AnswerHead& head);
// A web server, not an LLM API, answered: 405 or 501 (the path takes no POST), or an HTML page
// with any status but 502/503/504 (a gateway's page while the server behind it starts, which
// --wait-for-model-timeout waits out). Waiting never changes such an answer: the preflight fails
// at once.
bool answered_like_web_server(const AnswerHead& head);
// "HTTP 501 Unsupported method ('POST'), Server: SimpleHTTP/0.6, Content-Type: text/html, body:
// <at most 200 bytes>".
std::string describe_answer(const AnswerHead& head);

// Sends the first conversation's first turn (max tokens capped small) to the first target.
// Connection failures, 404, 503 and a gateway's HTML 502/504 are retried every second until
// `wait_s` has passed (a model still loading), then fail; another 4xx fails at once; another 5xx
// passes with a warning (the server answers; its errors are measured by the run). A web server's
// answer (answered_like_web_server) fails at once whatever `wait_s`. Failing exits 1, before the
// artifact folder exists.
PreflightResult run_preflight(const worker::RequestPlan& plan, double wait_s);

}  // namespace inferperf::app
