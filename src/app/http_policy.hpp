// The run's HTTP client policy (transport::HttpPolicy) from its configuration: one function, so
// the requests, preflight, model discovery, scrapes and downloads cannot drift apart.
#pragma once
#include "config/run_config.hpp"
#include "transport/http_policy.hpp"

namespace inferperf::app {

// --ssl-ca-file, --insecure and AIPERF_HTTP_SSL_VERIFY (false|0|no: off for every client), the
// origins of --url and the requests' credentials (--api-key, secret -H headers), the set-up
// timeout capped by --request-timeout-seconds. URLs that do not parse are left out (the runner
// reports them).
transport::HttpPolicy make_http_policy(const config::RunConfig& c);

}  // namespace inferperf::app
