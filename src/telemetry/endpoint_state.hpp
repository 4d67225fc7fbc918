// A scraped telemetry endpoint (DCGM exporter or server-metrics page) as the exporters see it, and
// the URL spellings it is fetched and reported under. Socket-free: the report links it without
// the collector and its transport.
#pragma once
#include <cstdint>
#include <string>

namespace inferperf::telemetry {

enum class Reach { kUnknown, kReachable, kUnreachable };

struct EndpointState {
  std::string url;        // as shown and exported: secret query values redacted
  std::string fetch_url;  // as fetched
  std::string name;       // host:port, with the path when it is not /metrics
  bool user_given = true;
  Reach reach = Reach::kUnknown;
  std::string problem;  // why the first fetch failed
  std::int64_t fetches = 0;
  std::int64_t failed_fetches = 0;
};

// "host:port" -> "http://host:port/metrics"; a URL with a path is kept as given.
std::string metrics_url(const std::string& text);
// The Prometheus page of a server under test: scheme://host:port/metrics of its base URL.
std::string server_metrics_url(const std::string& base_url);
// The name an endpoint is reported under: host:port, plus the path when it is not /metrics.
std::string endpoint_name(const std::string& url);

}  // namespace inferperf::telemetry
