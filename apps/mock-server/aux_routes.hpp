// The GET routes, answered whole: Hub file downloads (with --hub-dir), /health, /v1/models and
// /v1/videos/{id}[/content] (behind the API key), the mock's /metrics, the engine-flavoured and
// fake DCGM metric pages, the route list at "/", and 404 for the rest.
#pragma once
#include <string>

#include "connection.hpp"

namespace inferperf::mock::detail {

// The whole response to a GET of `path` (the target without its query).
std::string get_response(ServerState& server, const Request& req, const std::string& path,
                         bool keep);

}  // namespace inferperf::mock::detail
