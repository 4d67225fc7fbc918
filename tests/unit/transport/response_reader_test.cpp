// ResponseReader as the exchange drives it: each read's bytes in turn, the head, the status,
// reason and content type reported to the sink, the body handed on, cut into reads anywhere;
// whether it has the header lines gathered, as its sink asks; and when a connection may be reused.
#include "transport/response_reader.hpp"

#include <gtest/gtest.h>
#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "transport/http_exchange.hpp"

namespace {

using inferperf::transport::ResponseReader;
namespace http = boost::beast::http;

class Feeder final : public inferperf::transport::ResponseSink {
 public:
  explicit Feeder(std::uint64_t max_body_bytes = 0) : reader(max_body_bytes) {}
  // Returns false on a parse error.
  bool read(std::string_view piece) {
    if (piece.empty()) return true;  // the exchange never hands the reader an empty read
    error = reader.consume(piece, ++stamp, timings, *this);
    return !error;
  }
  void on_headers(int s, std::string_view r, std::string_view ct,
                  inferperf::core::MonoNs) override {
    ++heads;
    status = s;
    reason = std::string(r);
    content_type = std::string(ct);
  }
  void on_header_fields(std::string_view f) override { fields = std::string(f); }
  void on_body(std::string_view bytes, inferperf::core::MonoNs, std::uint32_t) override {
    body.append(bytes);
  }
  bool wants_header_fields() const override { return wants_fields; }

  ResponseReader reader;
  bool wants_fields = true;
  inferperf::transport::ExchangeTimings timings;
  inferperf::core::MonoNs stamp = 0;
  int heads = 0;
  int status = 0;
  std::string reason;
  std::string content_type;
  std::string fields;
  std::string body;
  boost::system::error_code error;
};

const std::string kChunked =
    "HTTP/1.1 200 OK\r\n"
    "Content-Type: text/event-stream\r\n"
    "Transfer-Encoding: chunked\r\n"
    "\r\n"
    "9\r\ndata: a\n\n\r\n"
    "f;ext=1\r\ndata: {\"x\":1}\n\n\r\n"
    "E\r\ndata: [DONE]\n\n\r\n"
    "0\r\n\r\n";
const std::string kChunkedBody = "data: a\n\ndata: {\"x\":1}\n\ndata: [DONE]\n\n";

void expect_chunked_result(const Feeder& f, const std::string& label) {
  EXPECT_FALSE(f.error) << label << ": " << f.error.message();
  EXPECT_TRUE(f.reader.done()) << label;
  EXPECT_EQ(f.heads, 1) << label;
  EXPECT_EQ(f.status, 200) << label;
  EXPECT_EQ(f.reason, "OK") << label;
  EXPECT_EQ(f.content_type, "text/event-stream") << label;
  EXPECT_EQ(f.body, kChunkedBody) << label;
  EXPECT_TRUE(f.reader.all_used()) << label;
  EXPECT_TRUE(f.reader.head().keep_alive()) << label;
}

TEST(ResponseReader, ChunkedInOnePiece) {
  Feeder f;
  ASSERT_TRUE(f.read(kChunked));
  expect_chunked_result(f, "whole");
  EXPECT_EQ(f.fields, "Content-Type: text/event-stream\nTransfer-Encoding: chunked\n");
  EXPECT_EQ(f.reader.head().framing, inferperf::transport::BodyFraming::kChunked);
}

TEST(ResponseReader, ChunkedSplitAtEveryPoint) {
  for (std::size_t cut = 0; cut <= kChunked.size(); ++cut) {
    Feeder f;
    ASSERT_TRUE(f.read(std::string_view(kChunked).substr(0, cut))) << cut;
    ASSERT_TRUE(f.read(std::string_view(kChunked).substr(cut))) << cut;
    expect_chunked_result(f, "split at " + std::to_string(cut));
  }
}

// The head is reported at the read that brings its last byte, stamped with that read's time.
TEST(ResponseReader, ChunkedByteByByte) {
  Feeder f;
  const std::size_t head_end = kChunked.find("\r\n\r\n") + 4;
  for (std::size_t i = 0; i < kChunked.size(); ++i) {
    ASSERT_TRUE(f.read(std::string_view(kChunked).substr(i, 1))) << i;
    EXPECT_EQ(f.reader.head_done(), i + 1 >= head_end) << i;
    EXPECT_EQ(f.heads, i + 1 >= head_end ? 1 : 0) << i;
  }
  expect_chunked_result(f, "byte by byte");
  EXPECT_EQ(f.timings.headers_ns, static_cast<inferperf::core::MonoNs>(head_end));  // its stamp
}

TEST(ResponseReader, ChunkedIrregularPieces) {
  for (std::size_t step : {2u, 3u, 7u, 13u, 64u}) {
    Feeder f;
    for (std::size_t i = 0; i < kChunked.size(); i += step) {
      ASSERT_TRUE(f.read(std::string_view(kChunked).substr(i, step)));
    }
    expect_chunked_result(f, "step " + std::to_string(step));
  }
}

TEST(ResponseReader, BodyIsDecodedIncrementally) {
  Feeder f;
  const std::size_t first_chunk_end = kChunked.find("f;ext");
  ASSERT_TRUE(f.read(kChunked.substr(0, first_chunk_end)));
  EXPECT_TRUE(f.reader.head_done());
  EXPECT_FALSE(f.reader.done());
  EXPECT_EQ(f.body, "data: a\n\n");
}

TEST(ResponseReader, ContentLengthBody) {
  const std::string resp =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n"
      "{\"a\":\"bc\"}";
  for (std::size_t cut = 0; cut <= resp.size(); ++cut) {
    Feeder f;
    ASSERT_TRUE(f.read(resp.substr(0, cut)));
    ASSERT_TRUE(f.read(resp.substr(cut)));
    EXPECT_TRUE(f.reader.done()) << cut;
    EXPECT_EQ(f.status, 200);
    EXPECT_EQ(f.content_type, "application/json");
    EXPECT_EQ(f.body, "{\"a\":\"bc\"}") << cut;
  }
}

TEST(ResponseReader, ErrorStatusWithReason) {
  Feeder f;
  ASSERT_TRUE(
      f.read("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n"
             "Connection: close\r\n\r\nnope"));
  EXPECT_TRUE(f.reader.done());
  EXPECT_EQ(f.status, 404);
  EXPECT_EQ(f.reason, "Not Found");
  EXPECT_EQ(f.content_type, "text/plain");
  EXPECT_EQ(f.body, "nope");
  EXPECT_FALSE(f.reader.head().keep_alive());
  EXPECT_TRUE(f.reader.all_used());
}

TEST(ResponseReader, CloseDelimitedBodyEndsAtEof) {
  Feeder f;
  ASSERT_TRUE(f.read("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nabc"));
  ASSERT_TRUE(f.read("def"));
  EXPECT_FALSE(f.reader.done());
  EXPECT_FALSE(f.reader.ends_at_close(boost::asio::error::connection_reset));
  EXPECT_TRUE(f.reader.ends_at_close(boost::asio::error::eof));
  EXPECT_TRUE(f.reader.done());
  EXPECT_EQ(f.body, "abcdef");
  EXPECT_FALSE(f.reader.head().keep_alive());  // a body delimited by close ends the connection
}

TEST(ResponseReader, GarbageIsAnError) {
  Feeder f;
  EXPECT_FALSE(f.read("NOT-HTTP garbage\r\n\r\n"));
  EXPECT_TRUE(f.error);
  EXPECT_NE(f.error, http::error::need_more);
}

TEST(ResponseReader, BadChunkSizeIsAnError) {
  Feeder f;
  EXPECT_FALSE(f.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n"));
  EXPECT_TRUE(f.error);
}

// ResponseReader asks its sink before the head: lines for a sink that keeps them, none for one
// that does not.
TEST(ResponseReader, GathersHeaderLinesOnlyForASinkThatWantsThem) {
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\n";
  for (const bool wants : {true, false}) {
    SCOPED_TRACE(wants ? "wants" : "does not want");
    Feeder f;
    f.wants_fields = wants;
    // The head split across two reads: the choice holds for both.
    ASSERT_TRUE(f.read(head));
    ASSERT_TRUE(f.read("Content-Length: 2\r\n\r\n{}"));
    EXPECT_TRUE(f.reader.done());
    EXPECT_EQ(f.content_type, "application/json");
    EXPECT_EQ(f.fields, wants ? "Content-Type: application/json\nX-A: 1\nContent-Length: 2\n" : "");
  }
}

// Bytes past the end of a response are never taken as the next one's: the connection is not
// reused (all_used false), and the body stops at its length.
TEST(ResponseReader, BytesAfterTheResponseMarkTheConnectionUnusable) {
  Feeder by_length;
  ASSERT_TRUE(by_length.read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1"));
  EXPECT_TRUE(by_length.reader.done());
  EXPECT_EQ(by_length.body, "abc");
  EXPECT_FALSE(by_length.reader.all_used());

  Feeder no_body;  // 204: done at its head, whatever follows
  ASSERT_TRUE(no_body.read("HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\n"));
  EXPECT_TRUE(no_body.reader.done());
  EXPECT_TRUE(no_body.reader.all_used());
  ASSERT_TRUE(no_body.read("abc"));
  EXPECT_EQ(no_body.body, "");
  EXPECT_FALSE(no_body.reader.all_used());

  Feeder whole;
  ASSERT_TRUE(whole.read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nab"));
  EXPECT_FALSE(whole.reader.ends_at_close(boost::asio::error::eof));  // a length left unfinished
  ASSERT_TRUE(whole.read("c"));
  EXPECT_TRUE(whole.reader.done());
  EXPECT_TRUE(whole.reader.all_used());
}

// --max-response-bytes: a body by close fails at the read that passes the cap (the cap itself is
// allowed), a Content-Length above it at the head.
TEST(ResponseReader, TheBodyCapHoldsForEveryFraming) {
  Feeder by_close(5);
  ASSERT_TRUE(by_close.read("HTTP/1.1 200 OK\r\n\r\nabc"));
  ASSERT_TRUE(by_close.read("de"));
  EXPECT_FALSE(by_close.read("f"));
  EXPECT_EQ(by_close.error, http::error::body_limit);
  EXPECT_EQ(by_close.body, "abcde");

  Feeder by_length(5);
  EXPECT_FALSE(by_length.read("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n"));
  EXPECT_EQ(by_length.error, http::error::body_limit);
  EXPECT_EQ(by_length.heads, 0);

  Feeder at_cap(5);
  ASSERT_TRUE(at_cap.read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcde"));
  EXPECT_TRUE(at_cap.reader.done());
}

// A head that never ends fails: in one read once its fields pass 1 MiB; cut into reads, which
// are only searched for its end, once 2 MiB are held (the status line and the fields may take
// 1 MiB each), never holding more.
TEST(ResponseReader, AHeadPastItsLimitFails) {
  constexpr std::size_t kLimit = inferperf::transport::kMaxResponseHeadBytes;
  const std::string start = "HTTP/1.1 200 OK\r\nX-Long: ";
  const std::string piece(4096, 'a');
  Feeder one;
  EXPECT_FALSE(one.read(start + std::string(kLimit, 'a')));
  EXPECT_EQ(one.error, http::error::header_limit);

  Feeder many;
  ASSERT_TRUE(many.read(start));
  std::size_t held = start.size();
  while (held < 3 * kLimit && many.read(piece)) held += piece.size();
  EXPECT_EQ(many.error, http::error::header_limit);
  EXPECT_GE(held + piece.size(), 2 * kLimit);
  EXPECT_LT(held, 2 * kLimit);
  EXPECT_EQ(many.heads, 0);
}

}  // namespace
