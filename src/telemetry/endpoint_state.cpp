#include "telemetry/endpoint_state.hpp"

namespace inferperf::telemetry {

namespace {

struct EndpointUrlParts {
  std::string scheme, authority, path;
};

EndpointUrlParts split_endpoint_url(const std::string& url) {
  EndpointUrlParts p;
  std::string rest = url;
  if (auto s = rest.find("://"); s != std::string::npos) {
    p.scheme = rest.substr(0, s);
    rest = rest.substr(s + 3);
  }
  // The authority ends at the path, or at a query when there is no path ("h:8000?x=1").
  const auto slash = rest.find_first_of("/?#");
  p.authority = slash == std::string::npos ? rest : rest.substr(0, slash);
  p.path = slash == std::string::npos ? "" : rest.substr(slash);
  return p;
}

}  // namespace

std::string metrics_url(const std::string& text) {
  EndpointUrlParts p = split_endpoint_url(text);
  if (p.scheme.empty()) p.scheme = "http";
  if (p.path.empty() || p.path == "/") p.path = "/metrics";
  return p.scheme + "://" + p.authority + p.path;
}

std::string server_metrics_url(const std::string& base_url) {
  EndpointUrlParts p = split_endpoint_url(base_url);
  if (p.scheme.empty()) p.scheme = "http";
  return p.scheme + "://" + p.authority + "/metrics";
}

// As AIPerf 0.11 names an exporter: host:port and the path without a trailing /metrics
// ("h:9400/metrics" -> "h:9400", "h:80/dcgm1/metrics" -> "h:80/dcgm1").
std::string endpoint_name(const std::string& url) {
  const EndpointUrlParts p = split_endpoint_url(url);
  std::string path = p.path;
  if (path.ends_with("/metrics")) path.resize(path.size() - std::string_view("/metrics").size());
  if (path == "/") path.clear();
  return p.authority + path;
}

}  // namespace inferperf::telemetry
