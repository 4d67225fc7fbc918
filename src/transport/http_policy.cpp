#include "transport/http_policy.hpp"

#include <algorithm>
#include <cstdlib>

namespace inferperf::transport {

namespace {

std::string lower_host(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool HttpPolicy::same_origin_as_server(const std::string& url) const {
  auto parsed = parse_base_url(url);
  if (!parsed) return false;
  return std::any_of(servers.begin(), servers.end(), [&](const BaseUrl& s) {
    return s.scheme == parsed->scheme && lower_host(s.host) == lower_host(parsed->host) &&
           s.port == parsed->port;
  });
}

HeaderList HttpPolicy::headers_for(const std::string& url) const {
  // An origin that already receives the key may ask for it on its /metrics page too (LiteLLM's
  // require_auth_for_metrics_endpoint); no other host ever sees it.
  return same_origin_as_server(url) ? credentials : HeaderList{};
}

GetRequest HttpPolicy::get(const std::string& url, Peer peer) const {
  GetRequest r;
  r.url = url;
  r.ssl_ca_file = ssl_ca_file;
  r.verify_tls = peer == Peer::kHub ? !hub_insecure : !insecure;
  if (peer == Peer::kNamedHost) r.headers = headers_for(url);
  r.timeout = setup_timeout;
  return r;
}

std::string proxy_note() {
  for (const char* name :
       {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"}) {
    const char* v = std::getenv(name);
    if (v && *v) {
      return std::string(name) +
             " is set, but inferperf never uses a proxy: it connects to every host directly";
    }
  }
  return {};
}

}  // namespace inferperf::transport
