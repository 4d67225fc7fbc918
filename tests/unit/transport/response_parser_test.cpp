// ResponseParser on its own, eager: a pending buffer that each read appends to, then put() until
// need_more. ResponseReader uses it for heads and bodies by length or close; its chunked decoding
// is the reference ChunkedBody is compared with (chunked_body_test.cpp, fuzz/http_fuzz.cpp). Also
// whether ResponseReader has the header lines gathered, as its sink asks.
#include "transport/response_parser.hpp"

#include <gtest/gtest.h>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "transport/http_exchange.hpp"
#include "transport/response_reader.hpp"

namespace {

using inferperf::transport::ResponseParser;
namespace http = boost::beast::http;

class Feeder {
 public:
  // Returns false on a parse error.
  bool read(std::string_view piece) {
    pending_.append(piece);
    while (!pending_.empty() && !parser.is_done()) {
      boost::beast::error_code ec;
      const std::size_t used = parser.put(boost::asio::buffer(pending_), ec);
      pending_.erase(0, used);
      if (ec == http::error::need_more) break;
      if (ec) {
        error = ec;
        return false;
      }
      if (used == 0) break;
    }
    body += parser.body_out();
    parser.body_out().clear();
    return true;
  }
  const std::string& pending() const { return pending_; }

  ResponseParser parser;
  std::string body;
  boost::beast::error_code error;

 private:
  std::string pending_;
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
  EXPECT_TRUE(f.parser.is_done()) << label;
  EXPECT_EQ(f.parser.status(), 200) << label;
  EXPECT_EQ(f.parser.reason(), "OK") << label;
  EXPECT_EQ(f.parser.content_type(), "text/event-stream") << label;
  EXPECT_EQ(f.body, kChunkedBody) << label;
  EXPECT_TRUE(f.pending().empty()) << label;
}

TEST(ResponseParser, ChunkedInOnePiece) {
  Feeder f;
  ASSERT_TRUE(f.read(kChunked));
  expect_chunked_result(f, "whole");
  EXPECT_EQ(f.parser.headers_text(),
            "Content-Type: text/event-stream\nTransfer-Encoding: chunked\n");
  EXPECT_TRUE(f.parser.keep_alive());
  EXPECT_TRUE(f.parser.chunked());
}

TEST(ResponseParser, ChunkedSplitAtEveryPoint) {
  for (std::size_t cut = 0; cut <= kChunked.size(); ++cut) {
    Feeder f;
    ASSERT_TRUE(f.read(std::string_view(kChunked).substr(0, cut))) << cut;
    ASSERT_TRUE(f.read(std::string_view(kChunked).substr(cut))) << cut;
    expect_chunked_result(f, "split at " + std::to_string(cut));
  }
}

TEST(ResponseParser, ChunkedByteByByte) {
  Feeder f;
  bool headers_seen_early = false;
  for (std::size_t i = 0; i < kChunked.size(); ++i) {
    ASSERT_TRUE(f.read(std::string_view(kChunked).substr(i, 1))) << i;
    if (f.parser.is_header_done() && i < 80) headers_seen_early = true;
  }
  expect_chunked_result(f, "byte by byte");
  EXPECT_TRUE(headers_seen_early);  // the header completes before the body arrives
}

TEST(ResponseParser, ChunkedIrregularPieces) {
  for (std::size_t step : {2u, 3u, 7u, 13u, 64u}) {
    Feeder f;
    for (std::size_t i = 0; i < kChunked.size(); i += step) {
      ASSERT_TRUE(f.read(std::string_view(kChunked).substr(i, step)));
    }
    expect_chunked_result(f, "step " + std::to_string(step));
  }
}

TEST(ResponseParser, BodyIsDecodedIncrementally) {
  Feeder f;
  const std::size_t first_chunk_end = kChunked.find("f;ext");
  ASSERT_TRUE(f.read(kChunked.substr(0, first_chunk_end)));
  EXPECT_TRUE(f.parser.is_header_done());
  EXPECT_FALSE(f.parser.is_done());
  EXPECT_EQ(f.body, "data: a\n\n");
}

TEST(ResponseParser, ContentLengthBody) {
  const std::string resp =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n"
      "{\"a\":\"bc\"}";
  for (std::size_t cut = 0; cut <= resp.size(); ++cut) {
    Feeder f;
    ASSERT_TRUE(f.read(resp.substr(0, cut)));
    ASSERT_TRUE(f.read(resp.substr(cut)));
    EXPECT_TRUE(f.parser.is_done()) << cut;
    EXPECT_EQ(f.parser.status(), 200);
    EXPECT_EQ(f.parser.content_type(), "application/json");
    EXPECT_EQ(f.body, "{\"a\":\"bc\"}") << cut;
  }
}

TEST(ResponseParser, ErrorStatusWithReason) {
  Feeder f;
  ASSERT_TRUE(
      f.read("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n"
             "Connection: close\r\n\r\nnope"));
  EXPECT_TRUE(f.parser.is_done());
  EXPECT_EQ(f.parser.status(), 404);
  EXPECT_EQ(f.parser.reason(), "Not Found");
  EXPECT_EQ(f.parser.content_type(), "text/plain");
  EXPECT_EQ(f.body, "nope");
  EXPECT_FALSE(f.parser.keep_alive());
}

TEST(ResponseParser, CloseDelimitedBodyEndsAtEof) {
  Feeder f;
  ASSERT_TRUE(f.read("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nabc"));
  ASSERT_TRUE(f.read("def"));
  EXPECT_FALSE(f.parser.is_done());
  boost::beast::error_code ec;
  f.parser.put_eof(ec);
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_TRUE(f.parser.is_done());
  f.body += f.parser.body_out();
  EXPECT_EQ(f.body, "abcdef");
}

TEST(ResponseParser, GarbageIsAnError) {
  Feeder f;
  EXPECT_FALSE(f.read("NOT-HTTP garbage\r\n\r\n"));
  EXPECT_TRUE(f.error);
  EXPECT_NE(f.error, http::error::need_more);
}

TEST(ResponseParser, BadChunkSizeIsAnError) {
  Feeder f;
  EXPECT_FALSE(f.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n"));
  EXPECT_TRUE(f.error);
}

}  // namespace

// A parser told not to keep the fields gathers no header lines; what the exchange needs from the
// head (status, reason, content type, framing) is the same.
TEST(ResponseParser, FieldsNotKeptLeaveTheHeadsFactsIntact) {
  Feeder f;
  f.parser.keep_fields(false);
  ASSERT_TRUE(f.read(kChunked));
  expect_chunked_result(f, "fields not kept");
  EXPECT_EQ(f.parser.headers_text(), "");
}

// ResponseReader asks its sink before the head: lines for a sink that keeps them, none for one
// that does not.
class HeadSink final : public inferperf::transport::ResponseSink {
 public:
  explicit HeadSink(bool wants) : wants_(wants) {}
  bool wants_header_fields() const override { return wants_; }
  void on_header_fields(std::string_view f) override { fields = std::string(f); }
  void on_headers(int, std::string_view, std::string_view ct, inferperf::core::MonoNs) override {
    content_type = std::string(ct);
  }
  void on_body(std::string_view, inferperf::core::MonoNs, std::uint32_t) override {}
  std::string fields = "unset";
  std::string content_type;

 private:
  bool wants_;
};

TEST(ResponseReader, GathersHeaderLinesOnlyForASinkThatWantsThem) {
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\n";
  for (const bool wants : {true, false}) {
    SCOPED_TRACE(wants ? "wants" : "does not want");
    inferperf::transport::ResponseReader reader(0);
    inferperf::transport::ExchangeTimings t;
    HeadSink sink(wants);
    // The head split across two reads: the choice holds for both.
    ASSERT_FALSE(reader.consume(head, 1, t, sink));
    ASSERT_FALSE(reader.consume("Content-Length: 2\r\n\r\n{}", 2, t, sink));
    EXPECT_TRUE(reader.done());
    EXPECT_EQ(sink.content_type, "application/json");
    EXPECT_EQ(sink.fields,
              wants ? "Content-Type: application/json\nX-A: 1\nContent-Length: 2\n" : "");
  }
}
