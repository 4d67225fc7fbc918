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
#include <vector>

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
  static const std::array<std::string_view, 43> kFields{
      "Content-Type: application/json",
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
      "Content-Length: +5",
      "Content-Length: 5\t,5",
      "CONTENT-LENGTH: 5",
      "Content-Lengths: 5",
      "Transfer-Encoding: chunked",
      "Transfer-Encoding: gzip, chunked",
      "Transfer-Encoding: chunked, gzip",
      "Transfer-Encoding: CHUNKED",
      "Transfer-Encoding: chunked;q",
      "Transfer-Encoding: gzip",
      "Transfer-Encoding: chunked, chunked",
      "Transfer-Encoding: ,chunked,",
      "TRANSFER-ENCODING: chunked",
      "Transfer-Encodinx: chunked",
      "Connection: close",
      "Connection: keep-alive",
      "Connection: Keep-Alive, Upgrade",
      "Connection: ,,close",
      "Connection: close x",
      "Connection:",
      "Proxy-Connection: close",
      "PROXY-CONNECTION: keep-alive",
      "X-Request-Id: 6de17462-690e",
      "Server: uvicorn",
      "Date: Mon, 07 Dec 2026 21:56:01 GMT",
      "X-Folded: a\r\n b",
      "X-Folded:\r\n \r\n c",
      "Connection:\r\n close",
      "X-Tab:\tv\t",
      "X-Obs: \xc3\xa9",
      "Bad Field: 1",
      "Content-Type: text/plain\r\n\tcharset=utf-8"};
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
    inferperf::transport::testing::edit_byte(head, at, static_cast<int>(rng() % 3), pick(kBytes));
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
    const bool keep_fields = i % 3 != 0;
    SCOPED_TRACE(msg);
    const auto beast = read_with_beast(msg, cap, keep_fields);
    const auto whole = read_with_reader(msg, 0, 1, cap, keep_fields);
    ASSERT_EQ(whole.head_done, beast.head_done);
    ASSERT_EQ(whole.head_error, beast.head_error) << whole.head_error.message();
    // Cut into reads: any error the reader gives for the head is the one it gives whole (a cut
    // head may wait for a blank line that never comes instead).
    const auto cut =
        read_with_reader(msg, 1 + i % 9, static_cast<std::uint32_t>(i + 1), cap, keep_fields);
    if (cut.head_error) {
      EXPECT_EQ(cut.head_error, whole.head_error);
    }
    if (!whole.head_done) {
      errors += whole.head_error ? 1 : 0;
      continue;
    }
    ++heads_done;
    ASSERT_EQ(whole.head, beast.head);
    // The body to the end of the bytes (the connection closes there): by length or to the close.
    // (These bytes are never a whole chunked body; ChunkedBody refuses them at once, Beast at
    // their first line end: chunked_body_test.cpp compares those.)
    if (whole.head.framing != inferperf::transport::BodyFraming::kChunked) {
      EXPECT_EQ(whole.failed, beast.failed);
      EXPECT_EQ(whole.done, beast.done);
      EXPECT_EQ(whole.body, beast.body);
    }
    ASSERT_TRUE(cut.head_done);
    EXPECT_EQ(cut.head, whole.head);
    EXPECT_EQ(cut.body, whole.body);
  }
  // Both kinds of head were drawn in numbers.
  EXPECT_GT(heads_done, 1000);
  EXPECT_GT(errors, 400);
}

// A chunked body's trailer fields are not the head's: the fields reported are the head's alone,
// as the reference reports them where Beast ends the head (a fuzz run caught the reference taking
// them in; fuzz/corpus/http/chunked_with_trailer).
TEST(ResponseHead, TrailerFieldsAreNotTheHeads) {
  using inferperf::transport::testing::read_with_beast;
  using inferperf::transport::testing::read_with_reader;
  const std::string msg =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"
      "X-Trailer: 1\r\nContent-Type: text/late\r\n\r\n";
  const auto ours = read_with_reader(msg, 0, 1, 0);
  const auto beast = read_with_beast(msg, 0);
  EXPECT_TRUE(ours.done);
  EXPECT_EQ(ours.body, "hello");
  EXPECT_EQ(ours.head.fields, "Transfer-Encoding: chunked\n");
  EXPECT_EQ(ours.head.content_type, "");
  EXPECT_EQ(ours.head, beast.head);
  EXPECT_EQ(ours.body, beast.body);
}

// The limits at their edges, against Beast: a folded value joined to 4096 bytes and one more
// (also when its first line is empty), and fields of 1 MiB and one more after a status line.
TEST(ResponseHead, LimitsMatchBeastAtTheirEdges) {
  using inferperf::transport::testing::read_with_beast;
  using inferperf::transport::testing::read_with_reader;
  const std::string status = "HTTP/1.1 200 OK\r\n";
  std::vector<std::string> heads;
  for (const std::size_t joined : {4096u, 4097u}) {
    // "X: " + a + "\r\n " + b: joined with one space, so a + b = joined - 1.
    const std::string a(2000, 'a');
    const std::string b(joined - 1 - a.size(), 'b');
    heads.push_back(status + "X: " + a + "\r\n " + b + "\r\nContent-Length: 0\r\n\r\n");
    heads.push_back(status + "X:\r\n " + a + "\r\n " + b + "\r\nContent-Length: 0\r\n\r\n");
  }
  for (const std::size_t fields : {inferperf::transport::kMaxResponseHeadBytes,
                                   inferperf::transport::kMaxResponseHeadBytes + 1}) {
    // "X: " + filler + "\r\n\r\n" is the fields' part.
    heads.push_back(status + "X: " + std::string(fields - 7, 'f') + "\r\n\r\n");
  }
  std::vector<boost::system::error_code> errors;
  for (const std::string& msg : heads) {
    const auto beast = read_with_beast(msg, 0);
    const auto whole = read_with_reader(msg, 0, 1, 0);
    EXPECT_EQ(whole.head_done, beast.head_done);
    EXPECT_EQ(whole.head_error, beast.head_error);
    EXPECT_EQ(whole.head, beast.head);
    errors.push_back(whole.head_error);
  }
  // The edges are where they are said to be: each pair accepted, then refused.
  const std::vector<boost::system::error_code> expected{
      {}, {}, http::error::header_limit, http::error::header_limit, {}, http::error::header_limit};
  EXPECT_EQ(errors, expected);
}

}  // namespace
