// The live observability options (cli_observe.cpp): AIPerf 0.11's OTLP push (--otel-url,
// --stream, --otel-resource-attributes, --gen-ai-provider, #900) and inferperf's own Prometheus
// endpoint (--prometheus-port, --prometheus-host). docs/observability.md describes them.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/run_config.hpp"
#include "core/error.hpp"

namespace inferperf::config {

// host[:port] gets http://; http and https keep theirs (any other scheme is an error); the path
// is made to end in /v1/metrics ("" and "/" become "/v1/metrics", "/otel" "/otel/v1/metrics").
core::Result<std::string> normalise_otel_url(std::string_view given);

// --stream items (metrics, timing, default, none; any case, - or _) into the two domains; an
// unknown word is an error naming it. An empty list keeps the default (both).
core::Result<std::pair<bool, bool>> parse_stream_domains(const std::vector<std::string>& items);

// --otel-resource-attributes key=value items (a comma list each); an item without '=' or with
// an empty key or value is an error.
core::Result<std::vector<std::pair<std::string, std::string>>> parse_resource_attributes(
    const std::vector<std::string>& items);

// --mlflow-tracking-uri: http(s)://host[:port][/path] (host[:port] gets http://), trailing '/'
// dropped. Empty, another scheme (file:, databricks, sqlite:) or no host is an error: inferperf
// speaks MLflow's REST API only.
core::Result<std::string> normalise_mlflow_uri(std::string_view given);

// --mlflow-tag items: each a JSON object ({"team": "perf"}; values that are not strings are
// written as JSON) or comma-separated key:value pairs. An empty key, or an item that is neither,
// is an error naming it.
core::Result<std::vector<std::pair<std::string, std::string>>> parse_mlflow_tags(
    const std::vector<std::string>& items);

}  // namespace inferperf::config
