// Used when -m is omitted: reads the first model id from the server's GET /v1/models.
#pragma once
#include <string>

#include "core/error.hpp"
#include "transport/url.hpp"

namespace inferperf::app {

core::Result<std::string> discover_model(const transport::BaseUrl& url, int timeout_s);

}  // namespace inferperf::app
