// Raw export request headers: which names are secrets and how a serialized head is split.
#include "records/raw_exchange.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using inferperf::records::HeaderList;
using inferperf::records::is_secret_header;
using inferperf::records::redacted_request_headers;

TEST(RawExchange, SecretHeaderNames) {
  for (const char* name :
       {"Authorization", "authorization", "AUTHORIZATION", "x-api-key", "X-Api-Key", "api-key",
        "Api-Key", "X-Auth-Token", "token", "x-client-secret", "SECRET", "X-Session-Key",
        "Proxy-Key-Id", "apikey"}) {
    EXPECT_TRUE(is_secret_header(name)) << name;
  }
  for (const char* name : {"Host", "User-Agent", "X-Request-ID", "X-Correlation-ID", "Content-Type",
                           "Accept", "Content-Length", "X-Mock-Fault", "Tok-en", ""}) {
    EXPECT_FALSE(is_secret_header(name)) << name;
  }
}

TEST(RawExchange, RequestHeadersAreSplitAndRedacted) {
  const std::string request =
      "POST /v1/chat/completions HTTP/1.1\r\nHost: h:8000\r\nUser-Agent: inferperf/1\r\n"
      "X-Request-ID: rid\r\nAuthorization: Bearer secret123\r\nx-api-key: k1\r\n"
      "My-Token:  t2 \r\nX-Trace: a:b\r\nContent-Length: 7\r\n\r\n{\"Authorization\":1}";
  const HeaderList expected = {{"Host", "h:8000"},          {"User-Agent", "inferperf/1"},
                               {"X-Request-ID", "rid"},     {"Authorization", "<redacted>"},
                               {"x-api-key", "<redacted>"}, {"My-Token", "<redacted>"},
                               {"X-Trace", "a:b"},          {"Content-Length", "7"}};
  EXPECT_EQ(redacted_request_headers(request), expected);
}

TEST(RawExchange, HeadWithoutHeaders) {
  EXPECT_TRUE(redacted_request_headers("POST / HTTP/1.1\r\n\r\n").empty());
  EXPECT_TRUE(redacted_request_headers("").empty());
}

}  // namespace
