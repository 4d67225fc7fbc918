// parse_base_url: accepted forms, their parts, and rejected forms.
#include "transport/url.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using inferperf::transport::parse_base_url;

struct GoodCase {
  const char* text;
  const char* host;
  std::uint16_t port;
  const char* base_path;
  const char* query;
  const char* host_header;
  const char* to_string;
};

TEST(ParseBaseUrl, Accepted) {
  const std::vector<GoodCase> table = {
      {"localhost:8000", "localhost", 8000, "", "", "localhost:8000", "http://localhost:8000"},
      {"http://127.0.0.1:9/v1/", "127.0.0.1", 9, "/v1", "", "127.0.0.1:9", "http://127.0.0.1:9/v1"},
      {"[::1]:8000", "::1", 8000, "", "", "[::1]:8000", "http://[::1]:8000"},
      {"http://[::1]:8000/v1", "::1", 8000, "/v1", "", "[::1]:8000", "http://[::1]:8000/v1"},
      {"[::1]", "::1", 80, "", "", "[::1]", "http://[::1]"},
      {"example.com", "example.com", 80, "", "", "example.com", "http://example.com"},
      {"HTTP://h:80//", "h", 80, "", "", "h", "http://h"},
      {"http://h:8080/a/b?x=1&y=/z", "h", 8080, "/a/b", "x=1&y=/z", "h:8080",
       "http://h:8080/a/b?x=1&y=/z"},
      {"h:65535", "h", 65535, "", "", "h:65535", "http://h:65535"},
  };
  for (const auto& c : table) {
    auto r = parse_base_url(c.text);
    ASSERT_TRUE(r.ok()) << c.text << ": " << r.error().message;
    EXPECT_EQ(r->scheme, "http") << c.text;
    EXPECT_EQ(r->host, c.host) << c.text;
    EXPECT_EQ(r->port, c.port) << c.text;
    EXPECT_EQ(r->base_path, c.base_path) << c.text;
    EXPECT_EQ(r->query, c.query) << c.text;
    EXPECT_EQ(r->host_header(), c.host_header) << c.text;
    EXPECT_EQ(r->to_string(), c.to_string) << c.text;
  }
}

TEST(ParseBaseUrl, HttpsDefaultsToPort443) {
  struct HttpsCase {
    const char* text;
    std::uint16_t port;
    const char* host_header;
    const char* to_string;
  };
  const std::vector<HttpsCase> table = {
      {"https://example.com", 443, "example.com", "https://example.com"},
      {"HTTPS://example.com/v1/", 443, "example.com", "https://example.com/v1"},
      {"https://example.com:443", 443, "example.com", "https://example.com"},
      {"https://localhost:8443/v1", 8443, "localhost:8443", "https://localhost:8443/v1"},
      {"https://example.com:80", 80, "example.com:80", "https://example.com:80"},
      {"https://[::1]", 443, "[::1]", "https://[::1]"},
  };
  for (const auto& c : table) {
    auto r = parse_base_url(c.text);
    ASSERT_TRUE(r.ok()) << c.text << ": " << r.error().message;
    EXPECT_EQ(r->scheme, "https") << c.text;
    EXPECT_EQ(r->port, c.port) << c.text;
    EXPECT_EQ(r->host_header(), c.host_header) << c.text;
    EXPECT_EQ(r->to_string(), c.to_string) << c.text;
  }
}

struct BadCase {
  const char* text;
  const char* why;  // substring of the message
};

TEST(ParseBaseUrl, Rejected) {
  const std::vector<BadCase> table = {
      {"http://h:0", "invalid port '0'"},
      {"ftp://x", "unknown scheme 'ftp'"},
      {"h:65536", "invalid port '65536'"},
      {"h:8a", "invalid port '8a'"},
      {"h:-1", "invalid port '-1'"},
      {":8000", "missing host"},
      {"http:///v1", "missing host"},
      {"[::1:8000", "unterminated IPv6 address"},
      {"[::1]8000", "unexpected text after IPv6 address"},
  };
  for (const auto& c : table) {
    auto r = parse_base_url(c.text);
    ASSERT_FALSE(r.ok()) << c.text << " was accepted";
    EXPECT_EQ(r.error().kind, inferperf::core::ErrorKind::kConfig);
    EXPECT_NE(r.error().message.find(c.why), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(std::string("'") + c.text + "'"), std::string::npos)
        << r.error().message;
  }
}

}  // namespace
