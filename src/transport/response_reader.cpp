#include "transport/response_reader.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>

namespace inferperf::transport {

using boost::system::error_code;

error_code ResponseReader::consume(std::string_view read, core::MonoNs ts, ExchangeTimings& t,
                                   ResponseSink& sink) {
  const std::uint32_t read_index = t.reads++;
  if (t.first_byte_ns == 0) t.first_byte_ns = ts;
  t.bytes_received += static_cast<std::int64_t>(read.size());
  if (const error_code pec = parse(read)) return pec;
  deliver(ts, read_index, t, sink);
  return {};
}

// Parsed straight from the read buffer; only bytes the parser could not take yet (a chunk header
// cut by the read) are kept for the next read.
error_code ResponseReader::parse(std::string_view read) {
  std::string_view avail = read;
  if (!pending_.empty()) {
    pending_.append(avail);
    avail = pending_;
  }
  std::size_t off = 0;
  while (off < avail.size() && !parser_.is_done()) {
    error_code pec;
    const std::size_t used =
        parser_.put(boost::asio::buffer(avail.data() + off, avail.size() - off), pec);
    off += used;
    if (pec == boost::beast::http::error::need_more) break;
    if (pec) return pec;
    if (used == 0) break;
  }
  if (!pending_.empty()) {
    pending_.erase(0, off);
  } else if (off < avail.size()) {
    pending_.assign(avail.substr(off));
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
  if (ec != boost::asio::error::eof || !parser_.is_header_done() || parser_.is_done()) return false;
  error_code eec;
  parser_.put_eof(eec);
  return !eec;
}

}  // namespace inferperf::transport
