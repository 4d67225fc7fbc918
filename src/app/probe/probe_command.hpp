// `inferperf probe URL`: a handful of small requests that tell in seconds how an OpenAI-compatible
// server behaves (endpoints served, stream usage, tokens per event, connections closed after
// streams, output length control, prompt token offset, prefix cache) and which inferperf flags
// fit it. docs/probe.md describes every check and the --json keys.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/endpoint_type.hpp"

namespace inferperf::app {

struct ProbeOptions {
  std::string url;                               // URL (scheme optional, as profile's --url)
  std::string model;                             // -m; empty: the first id of GET /v1/models
  std::optional<config::EndpointType> endpoint;  // --endpoint-type chat|completions: only it
  std::string api_key;                           // --api-key: Authorization: Bearer
  std::vector<std::pair<std::string, std::string>> headers;  // -H K:V
  std::string tokenizer;                                     // --tokenizer; empty: the model's
  std::string tokenizer_revision = "main";
  double timeout_s = 10.0;  // --timeout: per request
  bool json = false;
  bool insecure = false;
  std::string ssl_ca_file;
  std::string unix_socket;
};

struct ProbeCommand {
  bool run = false;  // false: print `message` (stdout when exit_code is 0), exit with `exit_code`
  int exit_code = 0;
  std::string message;
  ProbeOptions options;
};
ProbeCommand parse_probe_command(const std::vector<std::string>& args);

// The whole command. Exit codes: 0 (the probe ran; failed checks are findings), 1 (the server
// could not be reached at all), 2 (bad options).
int run_probe(const ProbeOptions& o);

}  // namespace inferperf::app
