// A small blocking HTTP(S) GET (and POST) for set-up work before a run (model list, tokenizer
// downloads): TLS with certificate and host-name verification, redirects, a total timeout per hop
// (really enforced: every step is asynchronous under one deadline), a body size limit.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace inferperf::transport {

struct GetRequest {
  std::string url;  // http:// or https://
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::seconds timeout{60};
  // Set from the run's HttpPolicy (transport/http_policy.hpp): the same TLS context as the
  // benchmark's requests (system store + --ssl-ca-file, verification unless turned off).
  bool verify_tls = true;
  std::string ssl_ca_file;
  int max_redirects = 5;
  std::uint64_t body_limit = 512ull << 20;  // a longer body is an error, not a memory blow-up
};

struct GetResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  std::string final_url;

  std::string header(const std::string& lower_name) const;
};

// A blocking POST (the OTLP exporter's): the same TLS rules, no redirects followed (a 3xx is a
// response), a deadline in milliseconds so a dead peer costs a bounded time.
struct PostRequest {
  std::string url;              // http:// or https://
  std::string method = "POST";  // or "PUT" (MLflow's artifact uploads)
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type = "application/json";
  std::string body;
  std::chrono::milliseconds timeout{10000};
  bool verify_tls = true;
  std::string ssl_ca_file;
  std::uint64_t body_limit = 1ull << 20;
};
core::Result<GetResponse> http_post(const PostRequest& request);

// Transport failures are errors; any HTTP status is a response. CA certificates come from the
// system store (or SSL_CERT_FILE / SSL_CERT_DIR when set) plus request.ssl_ca_file. No proxy is
// ever used (a set proxy variable is named in the error).
core::Result<GetResponse> http_get(const GetRequest& request);

}  // namespace inferperf::transport
