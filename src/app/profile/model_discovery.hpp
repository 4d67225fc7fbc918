// Used when -m is omitted: reads the first model id from the server's GET /v1/models.
#pragma once
#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

#include "core/error.hpp"
#include "transport/http_policy.hpp"
#include "transport/url.hpp"

namespace inferperf::app {

// Goes over the benchmark's own transport: `tls` is the run's client TLS context (https://),
// `unix_socket` the --unix-socket path (empty: the URL's host and port). `credentials` are the
// requests' (HttpPolicy::credentials): the list is on the server under test, which often guards it
// with the same key.
core::Result<std::string> discover_model(const transport::BaseUrl& url, int timeout_s,
                                         std::shared_ptr<boost::asio::ssl::context> tls = nullptr,
                                         const std::string& unix_socket = {},
                                         const transport::HeaderList& credentials = {});

}  // namespace inferperf::app
