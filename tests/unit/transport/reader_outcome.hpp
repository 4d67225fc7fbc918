// One response read two ways for comparison: by ResponseReader, the exchange's reader, fed in
// reads cut at pseudo-random points (or whole), and by Beast's parser (BeastResponseParser), the
// reference, given it whole. Shared by the http fuzz harness and response_head_test.cpp.
#pragma once
#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "beast_response_parser.hpp"
#include "transport/response_reader.hpp"

namespace inferperf::transport::testing {

class BodySink final : public ResponseSink {
 public:
  explicit BodySink(bool keep_fields) : keep_fields_(keep_fields) {}
  void on_headers(int, std::string_view, std::string_view, core::MonoNs) override {}
  void on_body(std::string_view bytes, core::MonoNs, std::uint32_t) override { body.append(bytes); }
  bool wants_header_fields() const override { return keep_fields_; }
  std::string body;

 private:
  bool keep_fields_;
};

// What a head said, as both parsers report it.
struct Head {
  int status = 0;
  std::string reason;
  std::string content_type;
  std::string fields;
  bool keep_alive = false;
  BodyFraming framing = BodyFraming::kNone;
  bool operator==(const Head&) const = default;
};

struct Outcome {
  bool done = false;
  bool failed = false;
  bool head_done = false;
  bool extension_refused = false;        // bad_chunk_extension: a difference from Beast by design
  boost::system::error_code head_error;  // the error that ended the parse before the head did
  Head head;
  std::string body;
};

// `max_read` 0: the whole response in one read; else reads of 1 to max_read bytes, drawn from
// `state` (xorshift). The connection closes after the last byte.
inline Outcome read_with_reader(std::string_view msg, std::size_t max_read, std::uint32_t state,
                                std::uint64_t cap, bool keep_fields = true) {
  ResponseReader reader(cap);
  ExchangeTimings t;
  BodySink sink(keep_fields);
  Outcome o;
  for (std::size_t at = 0; at < msg.size() && !reader.done();) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    const std::size_t n = max_read == 0 ? msg.size() : 1 + state % max_read;
    if (const auto ec = reader.consume(msg.substr(at, n), 0, t, sink)) {
      o.failed = true;
      if (!reader.head_done()) o.head_error = ec;
      o.extension_refused = ec == boost::beast::http::error::bad_chunk_extension;
      break;
    }
    at += n;
  }
  if (!o.failed && !reader.done()) reader.ends_at_close(boost::asio::error::eof);
  o.done = reader.done();
  o.head_done = reader.head_done();
  if (o.head_done) {
    const ResponseHead& h = reader.head();
    o.head = Head{h.status, h.reason, h.content_type, h.fields_text, h.keep_alive(), h.framing};
  }
  o.body = std::move(sink.body);
  return o;
}

// Beast alone: how the reader parsed every head before parse_response_head and decoded every
// body before ChunkedBody. The head's facts are taken when Beast ends the head (it stops there,
// not eager, then decodes the rest eagerly): a chunked body's trailer fields would otherwise join
// them, which the exchange never read. A Content-Length over the cap fails as Beast ends the head;
// the reader counts that as the head's error, and so does this.
inline Outcome read_with_beast(std::string_view msg, std::uint64_t cap, bool keep_fields = true) {
  BeastResponseParser parser(cap);
  parser.eager(false);
  parser.keep_fields(keep_fields);
  Outcome o;
  std::size_t off = 0;
  bool length_over_cap = false;
  while (off < msg.size() && !parser.is_done()) {
    boost::beast::error_code ec;
    const bool head_before = parser.is_header_done();
    const std::size_t used =
        parser.put(boost::asio::buffer(msg.data() + off, msg.size() - off), ec);
    off += used;
    if (ec) {
      o.failed = ec != boost::beast::http::error::need_more;
      length_over_cap = ec == boost::beast::http::error::body_limit && !head_before &&
                        parser.content_length().has_value();
      if (o.failed && (!parser.is_header_done() || length_over_cap)) o.head_error = ec;
      break;
    }
    if (!head_before && parser.is_header_done()) {
      BodyFraming framing = BodyFraming::kClose;
      if (parser.is_done()) {
        framing = BodyFraming::kNone;
      } else if (parser.chunked()) {
        framing = BodyFraming::kChunked;
      } else if (parser.content_length()) {
        framing = BodyFraming::kLength;
      }
      o.head = Head{parser.status(),       parser.reason(),     parser.content_type(),
                    parser.headers_text(), parser.keep_alive(), framing};
      parser.eager(true);
    }
    if (used == 0) break;
  }
  if (!o.failed && parser.is_header_done() && !parser.is_done()) {  // the connection closes
    boost::beast::error_code ec;
    parser.put_eof(ec);
  }
  o.done = parser.is_done();
  o.head_done = parser.is_header_done() && !length_over_cap;
  if (!o.head_done) o.head = Head{};
  o.body = parser.body_out();
  return o;
}

// The edit the differential tests make to a message: the byte at `at` changed to `c` (how 0),
// dropped (1) or doubled (2).
inline void edit_byte(std::string& msg, std::size_t at, int how, char c) {
  switch (how) {
    case 0:
      msg[at] = c;
      break;
    case 1:
      msg.erase(at, 1);
      break;
    default:
      msg.insert(at, 1, msg[at]);
  }
}

}  // namespace inferperf::transport::testing
