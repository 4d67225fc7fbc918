#include "app/http_policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/secrets.hpp"
#include "endpoint/endpoint.hpp"

namespace inferperf::app {

namespace {

bool ssl_verify_turned_off() {
  const char* v = std::getenv("AIPERF_HTTP_SSL_VERIFY");
  if (!v) return false;
  const std::string s = v;
  return s == "0" || s == "false" || s == "False" || s == "FALSE" || s == "no";
}

}  // namespace

transport::HttpPolicy make_http_policy(const config::RunConfig& c) {
  transport::HttpPolicy p;
  p.ssl_ca_file = c.endpoint.ssl_ca_file;
  p.hub_insecure = ssl_verify_turned_off();
  p.insecure = c.endpoint.insecure || p.hub_insecure;
  for (const auto& u : c.endpoint.urls) {
    if (auto parsed = transport::parse_base_url(u)) p.servers.push_back(std::move(*parsed));
  }
  // What authenticates the requests: --api-key as the endpoint sends it, and -H headers whose
  // name is a credential's (the same rule that redacts them).
  transport::HeaderList all = c.input.headers;
  for (auto& h : endpoint::protocol_headers(c.endpoint.type, c.endpoint.api_key, c.input.headers))
    all.push_back(std::move(h));
  for (auto& h : all)
    if (core::is_secret_name(h.first)) p.credentials.push_back(std::move(h));
  const double limit =
      std::isfinite(c.endpoint.request_timeout_s) ? c.endpoint.request_timeout_s : 10.0;
  p.setup_timeout =
      std::chrono::seconds(static_cast<long long>(std::clamp(std::ceil(limit), 1.0, 10.0)));
  return p;
}

}  // namespace inferperf::app
