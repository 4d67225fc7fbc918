#include "worker/request_plan.hpp"

#include <array>
#include <charconv>
#include <string_view>

#include "core/version.hpp"
#include "endpoint/multipart.hpp"

namespace inferperf::worker {

nlohmann::ordered_json build_body(const RequestPlan& plan, const dataset::Conversation& conv,
                                  const std::vector<dataset::Turn>& history, bool warmup) {
  endpoint::BodyOptions o = plan.body_options;
  o.user_context = conv.user_context;
  auto body = endpoint::build_request_body(*plan.endpoint, history, o);
  if (warmup) endpoint::apply_warmup_marker(body, plan.endpoint->info().type);
  return body;
}

std::string build_body_text(const RequestPlan& plan, const dataset::Conversation& conv,
                            const std::vector<dataset::Turn>& history, bool warmup) {
  return build_body(plan, conv, history, warmup)
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

// The identity headers around the two ids: `start` (the request line so far) is continued up to
// "X-Request-ID: ", `session` is "\r\n<name>: " and `rest` the line's end and the user's headers.
void identity_parts(const RequestPlan& plan, const Target& target, std::string& start,
                    std::string& session, std::string& rest) {
  start += " HTTP/1.1\r\nHost: ";
  start += target.url.host_header();
  start += "\r\nUser-Agent: inferperf/";
  start += kVersion;
  start += "\r\nX-Request-ID: ";
  session = "\r\n" + plan.session_header + ": ";
  rest = "\r\n";
  for (const auto& [k, v] : plan.headers) {
    rest += k;
    rest += ": ";
    rest += v;
    rest += "\r\n";
  }
}

}  // namespace

std::string serialize_get(const RequestPlan& plan, const Target& target, const std::string& path,
                          const std::string& x_request_id, const std::string& x_correlation_id) {
  std::string r = "GET " + path;
  std::string session, rest;
  identity_parts(plan, target, r, session, rest);
  r += x_request_id;
  r += session;
  r += x_correlation_id;
  r += rest;
  r += "Accept: application/json\r\n\r\n";
  return r;
}

std::string video_job_path(const Target& target, const std::string& id) {
  const std::size_t q = target.path.find('?');
  std::string path = target.path.substr(0, q) + "/" + id;
  if (q != std::string::npos) path += target.path.substr(q);
  return path;
}

RequestHead request_head(const RequestPlan& plan, const Target& target) {
  RequestHead h;
  h.start = "POST " + target.path;
  identity_parts(plan, target, h.start, h.session, h.rest);
  h.rest += "Content-Type: ";
  h.accept = "\r\nAccept: ";
  h.accept += plan.streaming ? "text/event-stream" : "application/json";
  h.accept += "\r\nContent-Length: ";
  return h;
}

std::string serialize_request(const RequestPlan& plan, const RequestHead& head,
                              const std::string& body, const std::string& x_request_id,
                              const std::string& x_correlation_id) {
  std::string_view content_type = "application/json";
  endpoint::MultipartBody form;
  if (plan.multipart) {
    auto encoded = endpoint::encode_multipart(nlohmann::ordered_json::parse(body, nullptr, false),
                                              endpoint::multipart_boundary(x_request_id));
    if (!encoded) throw std::runtime_error(encoded.error().message);
    form = std::move(*encoded);
    content_type = form.content_type;
  }
  const std::string& sent = plan.multipart ? form.bytes : body;
  std::array<char, 24> length;
  const auto length_end =
      std::to_chars(length.data(), length.data() + length.size(), sent.size()).ptr;
  std::string r;
  r.reserve(head.start.size() + head.session.size() + head.rest.size() + head.accept.size() +
            x_request_id.size() + x_correlation_id.size() + content_type.size() + sent.size() + 28);
  r += head.start;
  r += x_request_id;
  r += head.session;
  r += x_correlation_id;
  r += head.rest;
  r += content_type;
  r += head.accept;
  r.append(length.data(), length_end);
  r += "\r\n\r\n";
  r += sent;
  return r;
}

std::string serialize_request(const RequestPlan& plan, const Target& target,
                              const std::string& body, const std::string& x_request_id,
                              const std::string& x_correlation_id) {
  return serialize_request(plan, request_head(plan, target), body, x_request_id, x_correlation_id);
}

}  // namespace inferperf::worker
