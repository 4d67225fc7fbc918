// A response as the exchange reads it (ResponseReader: Beast's parser for the head and bodies by
// length, ChunkedBody for chunked bodies), fed whole and cut into reads at arbitrary points: once
// the head is parsed the cuts never change the outcome, and whatever Beast's own decoding finishes,
// ours finishes with the same body, unless ours refused a chunk extension: a bare LF in one ends
// it here, where Beast lets one through inside quotes (docs/decisions.md, "Chunked bodies are
// framed by our own decoder"). (Ours may finish what Beast refuses: the syntax of chunk
// extensions and trailer fields is not checked.)
// Input: one byte picks the read sizes and the body limit; the rest is the response's bytes.
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "transport/response_parser.hpp"
#include "transport/response_reader.hpp"

namespace {

using inferperf::transport::ExchangeTimings;
using inferperf::transport::ResponseParser;
using inferperf::transport::ResponseReader;
using inferperf::transport::ResponseSink;

class BodySink final : public ResponseSink {
 public:
  void on_headers(int, std::string_view, std::string_view, inferperf::core::MonoNs) override {}
  void on_body(std::string_view bytes, inferperf::core::MonoNs, std::uint32_t) override {
    body.append(bytes);
  }
  std::string body;
};

struct Outcome {
  bool done = false;
  bool failed = false;
  bool head_done = false;
  bool extension_refused = false;  // bad_chunk_extension: a difference from Beast by design
  std::string body;
  bool operator==(const Outcome&) const = default;
};

// `max_read` 0: the whole response in one read.
Outcome read(std::string_view msg, std::size_t max_read, std::uint32_t state, std::uint64_t cap) {
  ResponseReader reader(cap);
  ExchangeTimings t;
  BodySink sink;
  Outcome o;
  for (std::size_t at = 0; at < msg.size() && !reader.done();) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    const std::size_t n = max_read == 0 ? msg.size() : 1 + state % max_read;
    if (const auto ec = reader.consume(msg.substr(at, n), 0, t, sink)) {
      o.failed = true;
      o.extension_refused = ec == boost::beast::http::error::bad_chunk_extension;
      break;
    }
    at += n;
  }
  o.done = reader.done();
  o.head_done = reader.parser().is_header_done();
  o.body = std::move(sink.body);
  return o;
}

// Beast alone, eager: how the reader decoded every body before ChunkedBody.
Outcome read_with_beast(std::string_view msg, std::uint64_t cap) {
  ResponseParser parser(cap);
  Outcome o;
  std::size_t off = 0;
  while (off < msg.size() && !parser.is_done()) {
    boost::beast::error_code ec;
    const std::size_t used =
        parser.put(boost::asio::buffer(msg.data() + off, msg.size() - off), ec);
    off += used;
    if (ec) {
      o.failed = ec != boost::beast::http::error::need_more;
      break;
    }
    if (used == 0) break;
  }
  o.done = parser.is_done();
  o.body = parser.body_out();
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  const std::uint8_t mode = in.byte();
  const std::size_t max_read = 1 + (mode & 0x1f);
  const std::uint64_t cap = (mode & 0x80) != 0 ? 64 : 0;  // a small --max-response-bytes
  const std::string_view msg = in.rest();

  const Outcome whole = read(msg, 0, 1, cap);
  const Outcome cut = read(msg, max_read, 0x9e3779b9u ^ mode, cap);
  // Once the head is parsed (Beast refuses some malformed heads sooner when given more bytes at
  // once, a difference of its own), the cuts change nothing.
  if (whole.head_done && cut.head_done) {
    FUZZ_CHECK(whole.failed == cut.failed);
    if (!whole.failed) {
      FUZZ_CHECK(whole.done == cut.done);
      FUZZ_CHECK(whole.body == cut.body);
    }
  }
  const Outcome beast = read_with_beast(msg, cap);
  if (beast.done && !whole.extension_refused) {
    FUZZ_CHECK(whole.done);
    FUZZ_CHECK(whole.body == beast.body);
  }
  return 0;
}
