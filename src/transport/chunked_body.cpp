#include "transport/chunked_body.hpp"

#include <boost/beast/http/error.hpp>

#include <limits>

namespace inferperf::transport {

namespace {

namespace http = boost::beast::http;

// A size line's extension and a trailer section are bounded like a head: a server cannot make
// the client buffer or scan without end between two pieces of data. Their contents are not
// checked beyond that and their line ends (nothing reads them; Beast, before, let control
// characters through inside an extension's quotes). A size's leading zeros are not bounded (Beast
// reads any number of them): each is read once, as it arrives, like a byte of data.
constexpr std::uint32_t kMaxExtensionBytes = 4096;
constexpr std::uint32_t kMaxTrailerBytes = 64 * 1024;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void ChunkedBody::size_line_ended(boost::system::error_code& ec) {
  if (size_ == 0) {
    state_ = State::kTrailer;
    trailer_line_ = 0;
    return;
  }
  if (max_body_ != 0 && size_ > max_body_ - body_) {
    ec = http::error::body_limit;
    return;
  }
  body_ += size_;
  left_ = size_;
  state_ = State::kData;
}

std::size_t ChunkedBody::framing(std::string_view in, boost::system::error_code& ec) {
  std::size_t i = 0;
  while (i < in.size()) {
    const char c = in[i++];
    switch (state_) {
      case State::kSize:
        if (const int v = hex_value(c); v >= 0) {
          if (size_ > (std::numeric_limits<std::uint64_t>::max() >> 4)) {
            ec = http::error::bad_chunk;  // a size that does not fit 64 bits
            return i;
          }
          size_ = (size_ << 4) | static_cast<std::uint64_t>(v);
          has_digit_ = true;
          break;
        }
        if (!has_digit_ || (c != ';' && c != ' ' && c != '\t' && c != '\r')) {
          ec = http::error::bad_chunk;
          return i;
        }
        state_ = c == '\r' ? State::kSizeLf : State::kExtension;
        line_bytes_ = 0;
        break;
      case State::kExtension:
        if (c == '\r') {
          state_ = State::kSizeLf;
        } else if (c == '\n' || ++line_bytes_ > kMaxExtensionBytes) {
          ec = http::error::bad_chunk_extension;
          return i;
        }
        break;
      case State::kSizeLf:
        if (c != '\n') {
          ec = http::error::bad_chunk;
          return i;
        }
        size_line_ended(ec);
        if (ec || state_ == State::kData) return i;
        break;
      case State::kDataCr:
        if (c != '\r') {
          ec = http::error::bad_chunk;
          return i;
        }
        state_ = State::kDataLf;
        break;
      case State::kDataLf:
        if (c != '\n') {
          ec = http::error::bad_chunk;
          return i;
        }
        state_ = State::kSize;
        size_ = 0;
        has_digit_ = false;
        break;
      case State::kTrailer:
        if (c == '\r') {
          state_ = State::kTrailerLf;
        } else if (c == '\n' || ++trailer_bytes_ > kMaxTrailerBytes) {
          ec = c == '\n' ? http::error::bad_chunk : http::error::header_limit;
          return i;
        } else {
          ++trailer_line_;
        }
        break;
      case State::kTrailerLf:
        if (c != '\n') {
          ec = http::error::bad_chunk;
          return i;
        }
        if (trailer_line_ == 0) {  // the empty line: the body is complete
          state_ = State::kDone;
          return i;
        }
        trailer_line_ = 0;
        state_ = State::kTrailer;
        break;
      case State::kData:
      case State::kDone:
        return i - 1;  // not reached: decode() handles data and stops at the end
    }
  }
  return i;
}

}  // namespace inferperf::transport
