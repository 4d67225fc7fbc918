// Raw export request headers: how a serialized head is split and its secrets redacted (which names
// are secret: tests/unit/core/secrets_test.cpp).
#include "records/raw_exchange.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using inferperf::records::HeaderList;
using inferperf::records::redacted_request_headers;

TEST(RawExchange, RequestHeadersAreSplitAndRedacted) {
  const std::string request =
      "POST /v1/chat/completions HTTP/1.1\r\nHost: h:8000\r\nUser-Agent: inferperf/1\r\n"
      "X-Request-ID: rid\r\nAuthorization: Bearer secret123\r\nx-api-key: k1\r\n"
      "My-Token:  t2 \r\nX-Trace: a:b\r\nCookie: c=1\r\nContent-Length: 7\r\n\r\n"
      "{\"Authorization\":1}";
  const HeaderList expected = {{"Host", "h:8000"},          {"User-Agent", "inferperf/1"},
                               {"X-Request-ID", "rid"},     {"Authorization", "<redacted>"},
                               {"x-api-key", "<redacted>"}, {"My-Token", "<redacted>"},
                               {"X-Trace", "a:b"},          {"Cookie", "<redacted>"},
                               {"Content-Length", "7"}};
  EXPECT_EQ(redacted_request_headers(request), expected);
}

TEST(RawExchange, HeadWithoutHeaders) {
  EXPECT_TRUE(redacted_request_headers("POST / HTTP/1.1\r\n\r\n").empty());
  EXPECT_TRUE(redacted_request_headers("").empty());
}

}  // namespace
