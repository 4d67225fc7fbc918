#include "transport/response_reader.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>

namespace inferperf::transport {

using boost::system::error_code;

ResponseReader::ResponseReader(std::uint64_t max_body_bytes)
    : max_body_bytes_(max_body_bytes), parser_(max_body_bytes) {
  // put() stops at the end of the head, so a chunked body never reaches Beast's body parsing.
  parser_.eager(false);
}

error_code ResponseReader::consume(std::string_view read, core::MonoNs ts, ExchangeTimings& t,
                                   ResponseSink& sink) {
  const std::uint32_t read_index = t.reads++;
  if (t.first_byte_ns == 0) t.first_byte_ns = ts;
  t.bytes_received += static_cast<std::int64_t>(read.size());
  std::string_view body = read;
  if (!chunked_) {
    if (!parser_.is_header_done()) parser_.keep_fields(sink.wants_header_fields());
    if (const error_code pec = parse(read, body)) return pec;
    deliver(ts, read_index, t, sink);
    if (!chunked_) return {};
  }
  // One on_body per read, as for every other body: a read's only chunk straight from the read
  // buffer (a streamed event, usually), several gathered.
  std::string_view only;
  int pieces = 0;
  error_code pec;
  const std::size_t used = chunked_->decode(body, pec, [&](std::string_view data) {
    if (++pieces == 1) {
      only = data;
      return;
    }
    if (pieces == 2) gathered_.assign(only);
    gathered_.append(data);
  });
  if (!pec && used < body.size()) leftover_ = true;
  if (!pec && pieces > 0)
    sink.on_body(pieces == 1 ? only : std::string_view(gathered_), ts, read_index);
  handoff_.clear();  // after on_body: `only` may be a view into it
  return pec;
}

// Parsed straight from the read buffer; only bytes the parser could not take yet (a head cut by
// the read) are kept for the next read.
error_code ResponseReader::parse(std::string_view read, std::string_view& body) {
  body = {};
  std::string_view avail = read;
  if (!pending_.empty()) {
    pending_.append(avail);
    avail = pending_;
  }
  std::size_t off = 0;
  while (off < avail.size() && !parser_.is_done()) {
    const bool head_before = parser_.is_header_done();
    error_code pec;
    const std::size_t used =
        parser_.put(boost::asio::buffer(avail.data() + off, avail.size() - off), pec);
    off += used;
    if (pec == boost::beast::http::error::need_more) break;
    if (pec) return pec;
    if (!head_before && parser_.is_header_done() && !parser_.is_done()) {
      if (parser_.chunked()) {
        chunked_.emplace(max_body_bytes_);
        break;
      }
      parser_.eager(true);  // a body by length or by close: Beast decodes it
    }
    if (used == 0) break;
  }
  std::string_view rest = avail.substr(off);
  if (chunked_ && !rest.empty()) {
    if (!pending_.empty()) {  // the bytes live in pending_, which is cleared below
      handoff_.assign(rest);
      rest = handoff_;
    }
    body = rest;
    rest = {};
  }
  if (!pending_.empty()) {
    pending_.erase(0, off + (avail.size() - off - rest.size()));
  } else if (!rest.empty()) {
    pending_.assign(rest);
  }
  return {};
}

void ResponseReader::deliver(core::MonoNs ts, std::uint32_t read_index, ExchangeTimings& t,
                             ResponseSink& sink) {
  if (parser_.is_header_done() && !headers_reported_) {
    headers_reported_ = true;
    t.headers_ns = ts;
    sink.on_header_fields(parser_.headers_text());
    sink.on_headers(parser_.status(), parser_.reason(), parser_.content_type(), ts);
  }
  if (!parser_.body_out().empty()) {
    sink.on_body(parser_.body_out(), ts, read_index);
    parser_.body_out().clear();
  }
}

bool ResponseReader::ends_at_close(const error_code& ec) {
  if (chunked_) return false;  // a chunked body ends with its last chunk, never at a close
  if (ec != boost::asio::error::eof || !parser_.is_header_done() || parser_.is_done()) return false;
  error_code eec;
  parser_.put_eof(eec);
  return !eec;
}

}  // namespace inferperf::transport
