// make_http_policy and HttpPolicy: one rule for TLS trust, credentials and set-up timeouts for
// every HTTP client (docs/decisions.md, "One HTTP client policy").
#include "app/http_policy.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace inferperf::app {
namespace {

using transport::HeaderList;
using transport::Peer;

config::RunConfig config_with(const std::string& url) {
  config::RunConfig c;
  c.endpoint.urls = {url};
  c.endpoint.api_key = "sk-secret";
  c.input.headers = {{"X-Tenant-Key", "tenant-secret"}, {"X-Trace", "plain"}};
  return c;
}

// AIPERF_HTTP_SSL_VERIFY for one test only.
struct VerifyEnv {
  explicit VerifyEnv(const char* value) { setenv("AIPERF_HTTP_SSL_VERIFY", value, 1); }
  ~VerifyEnv() { unsetenv("AIPERF_HTTP_SSL_VERIFY"); }
};

TEST(HttpPolicy, CredentialsAreTheApiKeyAndSecretHeadersOnly) {
  const auto p = make_http_policy(config_with("https://llm.example:8443/v1"));
  const HeaderList expected = {{"X-Tenant-Key", "tenant-secret"},
                               {"Authorization", "Bearer sk-secret"}};
  EXPECT_EQ(p.credentials, expected);
}

TEST(HttpPolicy, CredentialsGoToTheServersOriginOnly) {
  const auto p = make_http_policy(config_with("https://llm.example:8443/v1"));
  EXPECT_EQ(p.headers_for("https://llm.example:8443/metrics"), p.credentials);
  EXPECT_EQ(p.headers_for("https://LLM.example:8443/other/metrics"), p.credentials);
  // Another port, host or scheme is another origin: nothing.
  EXPECT_TRUE(p.headers_for("https://llm.example:9400/metrics").empty());
  EXPECT_TRUE(p.headers_for("https://dcgm.example:8443/metrics").empty());
  EXPECT_TRUE(p.headers_for("http://llm.example:8443/metrics").empty());
  EXPECT_TRUE(p.headers_for("not a url").empty());
  // The Hub never gets them, even on the same origin.
  EXPECT_TRUE(p.get("https://llm.example:8443/x", Peer::kHub).headers.empty());
  EXPECT_EQ(p.get("https://llm.example:8443/metrics", Peer::kNamedHost).headers, p.credentials);
}

TEST(HttpPolicy, DefaultPortsMatchTheirScheme) {
  const auto p = make_http_policy(config_with("https://llm.example/v1"));
  EXPECT_FALSE(p.headers_for("https://llm.example:443/metrics").empty());
  EXPECT_TRUE(p.headers_for("https://llm.example:80/metrics").empty());
}

TEST(HttpPolicy, CaFileIsTrustedByEveryClient) {
  auto c = config_with("https://h:1");
  c.endpoint.ssl_ca_file = "/etc/ca.pem";
  const auto p = make_http_policy(c);
  EXPECT_EQ(p.get("https://h:1/metrics", Peer::kNamedHost).ssl_ca_file, "/etc/ca.pem");
  EXPECT_EQ(p.get("https://huggingface.co/x", Peer::kHub).ssl_ca_file, "/etc/ca.pem");
  EXPECT_TRUE(p.get("https://h:1/metrics", Peer::kNamedHost).verify_tls);
}

TEST(HttpPolicy, InsecureCoversTheNamedHostsNotTheHub) {
  auto c = config_with("https://h:1");
  c.endpoint.insecure = true;
  const auto p = make_http_policy(c);
  EXPECT_TRUE(p.insecure);
  EXPECT_FALSE(p.get("https://h:1/metrics", Peer::kNamedHost).verify_tls);
  EXPECT_FALSE(p.get("https://dcgm:9400/metrics", Peer::kNamedHost).verify_tls);
  EXPECT_TRUE(p.get("https://huggingface.co/x", Peer::kHub).verify_tls);
}

TEST(HttpPolicy, SslVerifyFalseTurnsVerificationOffEverywhere) {
  const VerifyEnv env("false");
  const auto p = make_http_policy(config_with("https://h:1"));
  EXPECT_TRUE(p.insecure);  // the requests' TLS context too
  EXPECT_FALSE(p.get("https://h:1/metrics", Peer::kNamedHost).verify_tls);
  EXPECT_FALSE(p.get("https://huggingface.co/x", Peer::kHub).verify_tls);
}

TEST(HttpPolicy, SslVerifyTrueChangesNothing) {
  const VerifyEnv env("true");
  const auto p = make_http_policy(config_with("https://h:1"));
  EXPECT_FALSE(p.insecure);
  EXPECT_FALSE(p.hub_insecure);
}

TEST(HttpPolicy, SetupTimeoutIsTenSecondsCappedByTheRequestTimeout) {
  auto c = config_with("http://h:1");
  EXPECT_EQ(make_http_policy(c).setup_timeout, std::chrono::seconds(10));
  c.endpoint.request_timeout_s = 2.5;
  EXPECT_EQ(make_http_policy(c).setup_timeout, std::chrono::seconds(3));
  c.endpoint.request_timeout_s = 0.01;
  EXPECT_EQ(make_http_policy(c).setup_timeout, std::chrono::seconds(1));
  EXPECT_EQ(make_http_policy(c).get("http://h:1/metrics", Peer::kNamedHost).timeout,
            std::chrono::seconds(1));
}

TEST(HttpPolicy, ProxyVariablesAreNamedNeverUsed) {
  unsetenv("HTTPS_PROXY");
  unsetenv("https_proxy");
  unsetenv("HTTP_PROXY");
  unsetenv("http_proxy");
  unsetenv("ALL_PROXY");
  unsetenv("all_proxy");
  EXPECT_EQ(transport::proxy_note(), "");
  setenv("https_proxy", "http://proxy:3128", 1);
  EXPECT_NE(transport::proxy_note().find("https_proxy is set, but inferperf never uses a proxy"),
            std::string::npos)
      << transport::proxy_note();
  unsetenv("https_proxy");
}

}  // namespace
}  // namespace inferperf::app
