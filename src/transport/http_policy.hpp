// The one HTTP client policy of a run (docs/decisions.md, "One HTTP client policy"): which CA
// files are trusted and where verification is off, which credentials go where, the set-up
// timeouts, and no proxies. Built once from the configuration (app::make_http_policy) and used
// by every client: the benchmark's requests and preflight (TLS context), model discovery, server
// metrics and DCGM scrapes, and Hub downloads (transport::http_get).
#pragma once
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "transport/http_get.hpp"
#include "transport/url.hpp"

namespace inferperf::transport {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Who a set-up fetch talks to. The hosts the user named (--url, --server-metrics,
// --gpu-telemetry) follow --insecure; the Hub (HF_ENDPOINT) is a third party that receives
// HF_TOKEN: only AIPERF_HTTP_SSL_VERIFY=false turns its verification off.
enum class Peer { kNamedHost, kHub };

struct HttpPolicy {
  std::string ssl_ca_file;    // --ssl-ca-file: trusted by every client, beside the system store
  bool insecure = false;      // --insecure or AIPERF_HTTP_SSL_VERIFY=false: named hosts unverified
  bool hub_insecure = false;  // AIPERF_HTTP_SSL_VERIFY=false only
  // The servers under test (--url): the requests' credentials go to these origins only.
  std::vector<BaseUrl> servers;
  // The requests' credential headers (from --api-key, and -H headers with a secret name).
  HeaderList credentials;
  // Model discovery and the first fetch of a metrics page the user named (capped by
  // --request-timeout-seconds).
  std::chrono::seconds setup_timeout{10};
  std::chrono::seconds hub_file_timeout{600};           // one tokenizer file on a slow link
  std::chrono::seconds dataset_download_timeout{3600};  // a public dataset (ShareGPT: 650 MB)

  // True when `url` has the scheme, host and port of one of `servers`.
  bool same_origin_as_server(const std::string& url) const;
  // The credentials for a same-origin URL; nothing for any other.
  HeaderList headers_for(const std::string& url) const;
  // A GET of `url` under this policy: TLS trust and verification for `peer`, headers_for(url)
  // for a named host, the set-up timeout.
  GetRequest get(const std::string& url, Peer peer) const;
};

// inferperf connects directly, as AIPerf does by default (AIPERF_HTTP_TRUST_ENV=false): proxy
// variables are never used. When one is set, a sentence saying so, for network errors; else "".
std::string proxy_note();

}  // namespace inferperf::transport
