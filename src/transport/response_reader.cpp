#include "transport/response_reader.hpp"

#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <limits>

namespace inferperf::transport {

using boost::system::error_code;
namespace http = boost::beast::http;

namespace {

// The end of the first blank line ("\r\n\r\n") in [p, last), or nullptr.
const char* find_head_end(const char* p, const char* last) {
  const std::string_view s(p, static_cast<std::size_t>(last - p));
  const std::size_t at = s.find("\r\n\r\n");
  return at == std::string_view::npos ? nullptr : p + at + 4;
}

}  // namespace

ResponseReader::ResponseReader(std::uint64_t max_body_bytes) : max_body_bytes_(max_body_bytes) {}

error_code ResponseReader::consume(std::string_view read, core::MonoNs ts, ExchangeTimings& t,
                                   ResponseSink& sink) {
  const std::uint32_t read_index = t.reads++;
  if (t.first_byte_ns == 0) t.first_byte_ns = ts;
  t.bytes_received += static_cast<std::int64_t>(read.size());
  std::string_view body = read;
  if (!head_done_) {
    if (const error_code ec = take_head(read, sink.wants_header_fields(), body)) return ec;
    if (!head_done_) return {};
    t.headers_ns = ts;
    sink.on_header_fields(head_.fields_text);
    sink.on_headers(head_.status, head_.reason, head_.content_type, ts);
    switch (head_.framing) {
      case BodyFraming::kNone:
        done_ = true;
        break;
      case BodyFraming::kLength:
        body_left_ = head_.content_length;
        break;
      case BodyFraming::kClose:
        body_left_ =
            max_body_bytes_ > 0 ? max_body_bytes_ : std::numeric_limits<std::uint64_t>::max();
        break;
      case BodyFraming::kChunked:
        chunked_.emplace(max_body_bytes_);
        break;
    }
  }
  if (!chunked_) {
    const error_code ec = take_plain_body(body, ts, read_index, sink);
    handoff_.clear();
    return ec;
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

// Parsed straight from the read when the head starts and ends in it. A head cut by reads is kept
// and parsed again, whole, only once its blank line has arrived, so a slow head costs one search
// of each read's bytes, not a parse per read. (Beast also waited for the blank line, but parsed
// again at once when a read left at most three bytes unparsed: a malformed head that never ends
// failed there with its syntax error, and ends here at the limit, the close or the timeout.)
error_code ResponseReader::take_head(std::string_view read, bool keep_fields,
                                     std::string_view& body) {
  std::string_view avail = read;
  if (!pending_.empty()) {
    const std::size_t searched = pending_.size() >= 3 ? pending_.size() - 3 : 0;
    pending_.append(read);
    if (find_head_end(pending_.data() + searched, pending_.data() + pending_.size()) == nullptr) {
      // The status line and the fields may take the limit each.
      if (pending_.size() >= 2 * kMaxResponseHeadBytes) return http::error::header_limit;
      return {};
    }
    avail = pending_;
  }
  error_code ec;
  const std::size_t used = parse_response_head(avail.data(), avail.data() + avail.size(),
                                               keep_fields, max_body_bytes_, head_, ec);
  if (ec == http::error::need_more) {
    // Also after a blank line when the bytes before it are too few for a status line
    // ("HT\r\n\r\n"): the next search starts past it, as Beast's does.
    if (pending_.empty()) pending_.assign(read);
    head_ = ResponseHead{};  // what the partial head filled in; parsed again from the start
    return {};
  }
  if (ec) return ec;
  head_done_ = true;
  if (pending_.empty()) {
    body = read.substr(used);
  } else {
    handoff_ = std::move(pending_);  // the body's first bytes live there until this read ends
    pending_.clear();
    body = std::string_view(handoff_).substr(used);
  }
  return {};
}

error_code ResponseReader::take_plain_body(std::string_view body, core::MonoNs ts,
                                           std::uint32_t read_index, ResponseSink& sink) {
  if (done_) {
    if (!body.empty()) leftover_ = true;
    return {};
  }
  if (head_.framing == BodyFraming::kClose) {
    if (body.size() > body_left_) return http::error::body_limit;
    body_left_ -= body.size();
  } else {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(body_left_, body.size()));
    if (n < body.size()) leftover_ = true;
    body = body.substr(0, n);
    body_left_ -= n;
    done_ = body_left_ == 0;
  }
  if (!body.empty()) sink.on_body(body, ts, read_index);
  return {};
}

bool ResponseReader::ends_at_close(const error_code& ec) {
  if (ec != boost::asio::error::eof || !head_done_ || done()) return false;
  if (head_.framing != BodyFraming::kClose) return false;  // a length or chunks left unfinished
  done_ = true;
  return true;
}

}  // namespace inferperf::transport
