#include "worker/request_plan.hpp"

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

void identity_headers(std::string& r, const RequestPlan& plan, const Target& target,
                      const std::string& x_request_id, const std::string& x_correlation_id) {
  r += " HTTP/1.1\r\nHost: ";
  r += target.url.host_header();
  r += "\r\nUser-Agent: inferperf/";
  r += kVersion;
  r += "\r\nX-Request-ID: ";
  r += x_request_id;
  r += "\r\n";
  r += plan.session_header;
  r += ": ";
  r += x_correlation_id;
  r += "\r\n";
  for (const auto& [k, v] : plan.headers) {
    r += k;
    r += ": ";
    r += v;
    r += "\r\n";
  }
}

}  // namespace

std::string serialize_get(const RequestPlan& plan, const Target& target, const std::string& path,
                          const std::string& x_request_id, const std::string& x_correlation_id) {
  std::string r = "GET " + path;
  identity_headers(r, plan, target, x_request_id, x_correlation_id);
  r += "Accept: application/json\r\n\r\n";
  return r;
}

std::string video_job_path(const Target& target, const std::string& id) {
  const std::size_t q = target.path.find('?');
  std::string path = target.path.substr(0, q) + "/" + id;
  if (q != std::string::npos) path += target.path.substr(q);
  return path;
}

std::string serialize_request(const RequestPlan& plan, const Target& target,
                              const std::string& body, const std::string& x_request_id,
                              const std::string& x_correlation_id) {
  std::string content_type = "application/json";
  std::string form;
  if (plan.multipart) {
    auto encoded = endpoint::encode_multipart(nlohmann::ordered_json::parse(body, nullptr, false),
                                              endpoint::multipart_boundary(x_request_id));
    if (!encoded) throw std::runtime_error(encoded.error().message);
    content_type = std::move(encoded->content_type);
    form = std::move(encoded->bytes);
  }
  const std::string& sent = plan.multipart ? form : body;
  std::string r;
  r.reserve(sent.size() + 512);
  r += "POST ";
  r += target.path;
  identity_headers(r, plan, target, x_request_id, x_correlation_id);
  r += "Content-Type: ";
  r += content_type;
  r += "\r\nAccept: ";
  r += plan.streaming ? "text/event-stream" : "application/json";
  r += "\r\nContent-Length: ";
  r += std::to_string(sent.size());
  r += "\r\n\r\n";
  r += sent;
  return r;
}

}  // namespace inferperf::worker
