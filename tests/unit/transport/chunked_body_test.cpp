// ResponseReader's chunked bodies (ChunkedBody) against Beast's own chunked decoding (the
// BeastResponseParser eager, as the reader used it before): the same bodies for seeded random
// messages cut at random points, the same body whenever both accept a mutated one, and the framing
// errors, limits and leftovers by name.
#include "transport/chunked_body.hpp"

#include <gtest/gtest.h>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "beast_response_parser.hpp"
#include "reader_outcome.hpp"
#include "transport/response_reader.hpp"

namespace {

using inferperf::transport::BeastResponseParser;
using inferperf::transport::ExchangeTimings;
using inferperf::transport::ResponseReader;
using inferperf::transport::ResponseSink;
namespace http = boost::beast::http;

const std::string kHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
    "Transfer-Encoding: chunked\r\n\r\n";

class BodySink final : public ResponseSink {
 public:
  void on_headers(int s, std::string_view, std::string_view, inferperf::core::MonoNs) override {
    status = s;
  }
  void on_body(std::string_view bytes, inferperf::core::MonoNs, std::uint32_t) override {
    body.append(bytes);
    ++calls;
  }
  int status = 0;
  int calls = 0;
  std::string body;
};

struct Outcome {
  bool done = false;
  bool failed = false;
  boost::system::error_code ec;
  std::string body;
  int calls = 0;
  bool all_used = true;
};

// The message through ResponseReader, one consume() per piece (the cut points).
Outcome read_with_reader(std::string_view msg, const std::vector<std::size_t>& cuts,
                         std::uint64_t limit = 0) {
  ResponseReader reader(limit);
  ExchangeTimings t;
  BodySink sink;
  Outcome o;
  std::size_t from = 0;
  for (std::size_t k = 0; k <= cuts.size() && !reader.done(); ++k) {
    const std::size_t to = k < cuts.size() ? cuts[k] : msg.size();
    if (to <= from) continue;
    if (const auto ec = reader.consume(msg.substr(from, to - from), k, t, sink)) {
      o.failed = true;
      o.ec = ec;
      break;
    }
    from = to;
  }
  o.done = reader.done();
  o.body = sink.body;
  o.calls = sink.calls;
  o.all_used = reader.all_used();
  return o;
}

// The reference: Beast's parser decoding the whole message eagerly.
Outcome read_with_beast(std::string_view msg) {
  BeastResponseParser parser;
  Outcome o;
  std::size_t off = 0;
  while (off < msg.size() && !parser.is_done()) {
    boost::beast::error_code ec;
    const std::size_t used =
        parser.put(boost::asio::buffer(msg.data() + off, msg.size() - off), ec);
    off += used;
    if (ec) {
      o.failed = ec != http::error::need_more;
      o.ec = ec;
      break;
    }
    if (used == 0) break;
  }
  o.done = parser.is_done();
  o.body = parser.body_out();
  return o;
}

std::string hex(std::size_t n, bool upper, int zeros) {
  std::string s(static_cast<std::size_t>(zeros), '0');
  char buf[32];
  std::snprintf(buf, sizeof buf, upper ? "%zX" : "%zx", n);
  return s + buf;
}

// A chunked message of random chunks (data with CR, LF and every byte value, sizes in mixed
// case with leading zeros, extensions, trailers); `body` gets the decoded bytes.
std::string random_message(std::mt19937& rng, std::string& body) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::string msg = kHead;
  const int chunks = pick(0, 12);
  for (int c = 0; c < chunks; ++c) {
    const auto size = static_cast<std::size_t>(pick(1, pick(0, 3) == 0 ? 3000 : 200));
    msg += hex(size, pick(0, 1) == 1, pick(0, 3) == 0 ? pick(1, 3) : 0);
    if (pick(0, 4) == 0) msg += ";name=value";
    if (pick(0, 8) == 0) msg += ";q=\"a;b c\"";
    if (pick(0, 8) == 0) msg += ";flag";
    msg += "\r\n";
    std::string data(size, '\0');
    for (char& ch : data)
      ch = static_cast<char>(pick(0, 3) == 0 ? "\r\n0:"[pick(0, 3)] : pick(0, 255));
    msg += data;
    body += data;
    msg += "\r\n";
  }
  msg += pick(0, 3) == 0 ? "000" : "0";
  if (pick(0, 4) == 0) msg += ";last=1";
  msg += "\r\n";
  if (pick(0, 3) == 0) msg += "X-Trailer: one\r\nX-Other: two words\r\n";
  msg += "\r\n";
  return msg;
}

std::vector<std::size_t> random_cuts(std::mt19937& rng, std::size_t size) {
  std::vector<std::size_t> cuts;
  const int n = std::uniform_int_distribution<int>(0, 8)(rng);
  for (int k = 0; k < n; ++k)
    cuts.push_back(std::uniform_int_distribution<std::size_t>(1, size)(rng));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

TEST(ChunkedBody, RandomMessagesDecodeAsBeastDecodesThem) {
  std::mt19937 rng(20261206);
  for (int m = 0; m < 1500; ++m) {
    std::string body;
    const std::string msg = random_message(rng, body);
    const Outcome beast = read_with_beast(msg);
    ASSERT_TRUE(beast.done && !beast.failed) << m << ": " << beast.ec.message();
    ASSERT_EQ(beast.body, body) << m;
    const Outcome ours = read_with_reader(msg, random_cuts(rng, msg.size()));
    ASSERT_FALSE(ours.failed) << m << ": " << ours.ec.message();
    ASSERT_TRUE(ours.done) << m;
    ASSERT_EQ(ours.body, body) << m;
    ASSERT_TRUE(ours.all_used) << m;
  }
}

// Every piece cut at every point, one byte at a time included: one on_body per read that has data.
TEST(ChunkedBody, EveryCutGivesTheSameBodyOnceCalledPerRead) {
  const std::string msg = kHead + "5\r\nhello\r\n6;x=1\r\n world\r\n0\r\n\r\n";
  for (std::size_t a = 1; a < msg.size(); ++a) {
    const Outcome o = read_with_reader(msg, {a});
    EXPECT_TRUE(o.done) << a;
    EXPECT_EQ(o.body, "hello world") << a;
    EXPECT_LE(o.calls, 2) << a;
  }
  std::vector<std::size_t> every;
  for (std::size_t a = 1; a < msg.size(); ++a) every.push_back(a);
  const Outcome bytewise = read_with_reader(msg, every);
  EXPECT_TRUE(bytewise.done);
  EXPECT_EQ(bytewise.body, "hello world");
  EXPECT_EQ(bytewise.calls, 11);
  const Outcome whole = read_with_reader(msg, {});
  EXPECT_EQ(whole.calls, 1);  // two chunks in one read: gathered into one call
}

// Mutated messages (a byte changed, dropped or doubled in the body part) decode as Beast decodes
// them: the same body when Beast accepts one, a failure when Beast refuses one, and not finished
// when Beast wants more. The one difference is on purpose: the syntax of chunk extensions and
// trailer fields, which nothing reads, is not checked (an extension ends at its line's CRLF, even
// inside an unclosed quote).
TEST(ChunkedBody, MutatedMessagesDecodeAsBeastDecodesThem) {
  std::mt19937 rng(7);
  int done = 0, failed = 0, lenient = 0;
  for (int m = 0; m < 3000; ++m) {
    std::string body;
    std::string msg = random_message(rng, body);
    const auto at = std::uniform_int_distribution<std::size_t>(kHead.size(), msg.size() - 1)(rng);
    const int how = std::uniform_int_distribution<int>(0, 2)(rng);
    const char c = "\r\n0;aZ \t\x01"[std::uniform_int_distribution<int>(0, 8)(rng)];
    inferperf::transport::testing::edit_byte(msg, at, how, c);
    const Outcome beast = read_with_beast(msg);
    const Outcome ours = read_with_reader(msg, random_cuts(rng, msg.size()));
    if (beast.done) {
      ++done;
      ASSERT_TRUE(ours.done) << m << ": " << ours.ec.message();
      ASSERT_EQ(ours.body, beast.body) << m;
    } else if (beast.ec == http::error::bad_chunk_extension || beast.ec == http::error::bad_field ||
               beast.ec == http::error::bad_value) {
      lenient += ours.done ? 1 : 0;
    } else if (beast.failed) {
      ++failed;
      ASSERT_TRUE(ours.failed) << m << ": Beast refused it (" << beast.ec.message() << ")";
    } else {
      // Beast waits for more: ours waits too, refuses sooner (a bare LF in a trailer), or has
      // finished where Beast reads an extension's unclosed quote on past the line's end.
      lenient += ours.done ? 1 : 0;
    }
  }
  EXPECT_GT(done, 300);
  EXPECT_GT(failed, 300);
  EXPECT_LT(lenient, 100);
}

Outcome whole(const std::string& body_part, std::uint64_t limit = 0) {
  return read_with_reader(kHead + body_part, {}, limit);
}

TEST(ChunkedBody, BadFramingIsNamed) {
  EXPECT_EQ(whole("zz\r\nabc\r\n").ec, http::error::bad_chunk);
  EXPECT_EQ(whole("\r\n").ec, http::error::bad_chunk);           // no size
  EXPECT_EQ(whole("3\nabc\r\n").ec, http::error::bad_chunk);     // bare LF
  EXPECT_EQ(whole("3\r\nabcX\r\n").ec, http::error::bad_chunk);  // data longer than its size
  EXPECT_EQ(whole("3\r\nabc\r\n0\r\n\r\r").ec, http::error::bad_chunk);
  EXPECT_EQ(whole("3;a\nabc").ec, http::error::bad_chunk_extension);  // bare LF
  EXPECT_EQ(whole("3\r\nabc\r\n0\r\nX: 1\n\r\n").ec, http::error::bad_chunk);
  EXPECT_EQ(whole("3;" + std::string(5000, 'e') + "\r\n").ec, http::error::bad_chunk_extension);
  EXPECT_EQ(whole("10000000000000000\r\n").ec, http::error::bad_chunk);    // 17 digits: > 64 bits
  EXPECT_FALSE(whole("0000000000000000000001\r\nx\r\n0\r\n\r\n").failed);  // leading zeros
  const std::string zeros = std::string(5000, '0') + "1\r\nx\r\n0\r\n\r\n";
  EXPECT_TRUE(whole(zeros).done);  // any number of leading zeros, as Beast reads them
  EXPECT_TRUE(read_with_beast(kHead + zeros).done);
  EXPECT_EQ(whole("0\r\nX: " + std::string(70000, 't') + "\r\n\r\n").ec, http::error::header_limit);
}

TEST(ChunkedBody, TheBodyLimitFailsAtTheChunkThatPassesIt) {
  const Outcome at = whole("5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n", 10);
  EXPECT_TRUE(at.done);
  EXPECT_EQ(at.body, "helloworld");
  const Outcome over = whole("5\r\nhello\r\n6\r\nworld!\r\n0\r\n\r\n", 10);
  EXPECT_EQ(over.ec, http::error::body_limit);
  EXPECT_EQ(over.body, "");  // the failing read delivers nothing, as before
  EXPECT_EQ(whole("ffffffffffffffff\r\n", 10).ec, http::error::body_limit);
}

TEST(ChunkedBody, TrailersEndTheBodyAndBytesAfterItAreLeftOver) {
  const Outcome t = whole("3\r\nabc\r\n0\r\nX-A: 1\r\nX-B: 2\r\n\r\n");
  EXPECT_TRUE(t.done);
  EXPECT_TRUE(t.all_used);
  EXPECT_EQ(t.body, "abc");
  const Outcome extra = whole("3\r\nabc\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n");
  EXPECT_TRUE(extra.done);
  EXPECT_FALSE(extra.all_used);  // the connection is not reused
  const Outcome partial = whole("3\r\nabc\r\n0\r\n");
  EXPECT_FALSE(partial.done);
  EXPECT_FALSE(partial.failed);
}

}  // namespace
