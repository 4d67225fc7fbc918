// parse_response_head: the facts a head gives the exchange (status, reason, content type, fields,
// framing, keep-alive) and its errors by name, then against Beast's parser (the reference it
// replaced) on seeded heads built from the fields servers send and the ones they get wrong, with
// bytes changed: the same head or the same error, whole or cut into reads.
#include "transport/response_head.hpp"

#include <gtest/gtest.h>
#include <boost/beast/http/error.hpp>

#include <array>
#include <random>
#include <string>
#include <string_view>

#include "reader_outcome.hpp"

namespace {

using inferperf::transport::BodyFraming;
using inferperf::transport::ResponseHead;
namespace http = boost::beast::http;

struct Parsed {
  ResponseHead head;
  boost::system::error_code ec;
  std::size_t used = 0;
};

Parsed parse(std::string_view bytes, std::uint64_t cap = 0) {
  Parsed p;
  p.used = inferperf::transport::parse_response_head(bytes.data(), bytes.data() + bytes.size(),
                                                     true, cap, p.head, p.ec);
  return p;
}

TEST(ResponseHead, TheUsualHeadGivesItsFactsAndEndsAtItsBlankLine) {
  const std::string head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 294\r\n"
      "Connection: keep-alive\r\n\r\n";
  const Parsed p = parse(head + "{\"id\":");
  ASSERT_FALSE(p.ec) << p.ec.message();
  EXPECT_EQ(p.used, head.size());
  EXPECT_EQ(p.head.version, 11);
  EXPECT_EQ(p.head.status, 200);
  EXPECT_EQ(p.head.reason, "OK");
  EXPECT_EQ(p.head.content_type, "application/json");
  EXPECT_EQ(p.head.framing, BodyFraming::kLength);
  EXPECT_EQ(p.head.content_length, 294u);
  EXPECT_TRUE(p.head.keep_alive());
  EXPECT_EQ(p.head.fields_text,
            "Content-Type: application/json\nContent-Length: 294\nConnection: keep-alive\n");
}

TEST(ResponseHead, FramingFollowsStatusLengthAndCoding) {
  struct Case {
    std::string head;
    BodyFraming framing;
    bool keep_alive;
  };
  const std::array<Case, 9> cases{{
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n", BodyFraming::kChunked, true},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", BodyFraming::kClose, false},
      {"HTTP/1.1 200 OK\r\n\r\n", BodyFraming::kClose, false},
      {"HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n", BodyFraming::kNone, true},
      {"HTTP/1.1 101 Switching\r\n\r\n", BodyFraming::kNone, true},
      {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: x, Close\r\n\r\n", BodyFraming::kNone,
       false},
      {"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n", BodyFraming::kLength, false},
      {"HTTP/1.0 200 OK\r\nContent-Length: 2\r\nProxy-Connection: keep-alive\r\n\r\n",
       BodyFraming::kLength, true},
      {"HTTP/1.1 200 OK\r\nContent-Length: 7 , 7\r\n\r\n", BodyFraming::kLength, true},
  }};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.head);
    const Parsed p = parse(c.head);
    ASSERT_FALSE(p.ec) << p.ec.message();
    EXPECT_EQ(p.head.framing, c.framing);
    EXPECT_EQ(p.head.keep_alive(), c.keep_alive);
  }
}

// A folded value is joined by single spaces (an empty first line skipped), trailing whitespace
// trimmed.
TEST(ResponseHead, AFoldedValueIsJoined) {
  const Parsed p = parse(
      "HTTP/1.1 200 OK\r\nX-A: one \r\n  two\r\n\tthree\r\nX-B:\r\n four\r\n"
      "Content-Type:text/plain \t\r\nContent-Length: 1\r\n\r\n");
  ASSERT_FALSE(p.ec) << p.ec.message();
  EXPECT_EQ(p.head.fields_text,
            "X-A: one two three\nX-B: four\nContent-Type: text/plain\nContent-Length: 1\n");
  EXPECT_EQ(p.head.content_type, "text/plain");
}

TEST(ResponseHead, ErrorsAreNamedAsBeastNamesThem) {
  struct Case {
    std::string head;
    http::error error;
  };
  const std::array<Case, 14> cases{{
      {"HTTP/1.1 200 O", http::error::need_more},
      {"HTTP/2.0 200 OK\r\n\r\n", http::error::bad_version},
      {"http/1.1 200 OK\r\n\r\n", http::error::bad_version},
      {"HTTP/1.1 2000 OK\r\n\r\n", http::error::bad_status},
      {"HTTP/1.1 200 O\x01K\r\n\r\n", http::error::bad_reason},
      {"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", http::error::bad_field},
      {"HTTP/1.1 200 OK\r\n: x\r\n\r\n", http::error::bad_field},
      {"HTTP/1.1 200 OK\r\nX: a\x7f\r\n\r\n", http::error::bad_value},
      {"HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n", http::error::bad_line_ending},
      {"HTTP/1.1 200 OK\r\nConnection: close;x\r\n\r\n", http::error::bad_value},
      {"HTTP/1.1 200 OK\r\nContent-Length: 5,,5\r\n\r\n", http::error::bad_content_length},
      {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
       http::error::multiple_content_length},
      {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
       http::error::bad_transfer_encoding},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
       http::error::bad_content_length},
  }};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.head);
    const Parsed p = parse(c.head);
    EXPECT_EQ(p.ec, c.error) << p.ec.message();
    EXPECT_EQ(p.used, 0u);
  }
  EXPECT_EQ(parse("HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n", 64).ec, http::error::body_limit);
  EXPECT_FALSE(parse("HTTP/1.1 200 OK\r\nContent-Length: 64\r\n\r\n", 64).ec);
}

// Seeded heads from pieces servers send, and the ones they get wrong.
std::string random_head(std::mt19937& rng) {
  auto pick = [&](const auto& options) { return options[rng() % options.size()]; };
  static const std::array<std::string_view, 10> kStatusLines{"HTTP/1.1 200 OK",
                                                             "HTTP/1.1 200 OK",
                                                             "HTTP/1.0 200 OK",
                                                             "HTTP/1.1 404 Not Found",
                                                             "HTTP/1.1 204 No Content",
                                                             "HTTP/1.1 100 Continue",
                                                             "HTTP/1.1 200 ",
                                                             "HTTP/1.1 304 \tx\x80",
                                                             "HTTP/1.1 500 Internal Server Error",
                                                             "HTTP/1.1 429 Too Many Requests"};
  static const std::array<std::string_view, 34> kFields{"Content-Type: application/json",
                                                        "content-type:text/event-stream ",
                                                        "Content-Length: 5",
                                                        "Content-Length: 5, 5",
                                                        "Content-Length: 5,6",
                                                        "Content-Length: ",
                                                        "Content-Length:  5 ,",
                                                        "Content-Length: 05",
                                                        "Content-Length: 99999999999999999999999",
                                                        "Content-Length: 5 5",
                                                        "Content-Length: 70",
                                                        "Transfer-Encoding: chunked",
                                                        "Transfer-Encoding: gzip, chunked",
                                                        "Transfer-Encoding: chunked, gzip",
                                                        "Transfer-Encoding: CHUNKED",
                                                        "Transfer-Encoding: chunked;q",
                                                        "Transfer-Encoding: gzip",
                                                        "Transfer-Encoding: chunked, chunked",
                                                        "Transfer-Encoding: ,chunked,",
                                                        "Connection: close",
                                                        "Connection: keep-alive",
                                                        "Connection: Keep-Alive, Upgrade",
                                                        "Connection: ,,close",
                                                        "Connection: close x",
                                                        "Connection:",
                                                        "Proxy-Connection: close",
                                                        "X-Request-Id: 6de17462-690e",
                                                        "Server: uvicorn",
                                                        "Date: Mon, 07 Dec 2026 21:56:01 GMT",
                                                        "X-Folded: a\r\n b",
                                                        "X-Folded:\r\n \r\n c",
                                                        "X-Tab:\tv\t",
                                                        "X-Obs: \xc3\xa9",
                                                        "Bad Field: 1"};
  std::string head(pick(kStatusLines));
  head += "\r\n";
  const std::size_t fields = rng() % 6;
  for (std::size_t i = 0; i < fields; ++i) {
    head += pick(kFields);
    head += "\r\n";
  }
  head += "\r\n";
  head += "hello, this is the body";
  if (rng() % 3 == 0) {  // one byte changed, dropped or doubled
    const std::size_t at = rng() % head.size();
    static const std::array<char, 10> kBytes{'\r', '\n', ' ',    '\t', ':',
                                             ',',  '\0', '\x7f', 'a',  '\xff'};
    switch (rng() % 3) {
      case 0:
        head[at] = pick(kBytes);
        break;
      case 1:
        head.erase(at, 1);
        break;
      default:
        head.insert(at, 1, head[at]);
    }
  }
  return head;
}

TEST(ResponseHead, SeededHeadsParseAsBeastParsesThem) {
  using inferperf::transport::testing::read_with_beast;
  using inferperf::transport::testing::read_with_reader;
  std::mt19937 rng(20261207);
  int heads_done = 0;
  int errors = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::string msg = random_head(rng);
    const std::uint64_t cap = i % 4 == 0 ? 64 : 0;
    SCOPED_TRACE(msg);
    const auto beast = read_with_beast(msg, cap);
    const auto whole = read_with_reader(msg, 0, 1, cap);
    ASSERT_EQ(whole.head_done, beast.head_done);
    ASSERT_EQ(whole.head_error, beast.head_error) << whole.head_error.message();
    if (!whole.head_done) {
      errors += whole.head_error ? 1 : 0;
      continue;
    }
    ++heads_done;
    ASSERT_EQ(whole.head, beast.head);
    // The body as far as the bytes go, by length or to the end (a chunked body here is never
    // whole: both refuse or wait).
    if (beast.done) {
      EXPECT_TRUE(whole.done);
      EXPECT_EQ(whole.body, beast.body);
    }
    // Cut into reads: the same head.
    const auto cut = read_with_reader(msg, 1 + i % 9, static_cast<std::uint32_t>(i + 1), cap);
    ASSERT_TRUE(cut.head_done);
    EXPECT_EQ(cut.head, whole.head);
  }
  // Both kinds of head were drawn in numbers.
  EXPECT_GT(heads_done, 1000);
  EXPECT_GT(errors, 400);
}

}  // namespace
