// The chunked transfer coding of a response body (RFC 9112 §7.1), decoded in the same pass that
// hands the body to the sink: each chunk's data is given as a view into the bytes read, so a
// streamed event is neither copied into a body buffer nor framed by a second parser. The head is
// parse_response_head's (ResponseReader); this owns only what follows a chunked head.
#pragma once
#include <boost/system/error_code.hpp>

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace inferperf::transport {

class ChunkedBody {
 public:
  // `max_body_bytes`: decoded bytes past which decoding fails with http::error::body_limit, as
  // soon as a chunk's size announces them; 0 = no cap.
  explicit ChunkedBody(std::uint64_t max_body_bytes) : max_body_(max_body_bytes) {}

  // Decodes `in`, handing each piece of chunk data to `emit(std::string_view)` in order (views
  // into `in`, valid during the call). Returns the bytes used: all of `in` unless the body ended
  // inside it (what follows is not this response's). `ec` is set on a malformed or oversized body
  // (http::error::bad_chunk, bad_chunk_extension, header_limit, body_limit); decoding stops there.
  template <typename Emit>
  std::size_t decode(std::string_view in, boost::system::error_code& ec, Emit&& emit) {
    std::size_t i = 0;
    while (i < in.size() && state_ != State::kDone) {
      if (state_ == State::kData) {
        const std::size_t take =
            static_cast<std::size_t>(std::min<std::uint64_t>(left_, in.size() - i));
        emit(in.substr(i, take));
        i += take;
        left_ -= take;
        if (left_ == 0) state_ = State::kDataCr;
        continue;
      }
      i += framing(in.substr(i), ec);
      if (ec) break;
    }
    return i;
  }

  // The terminating chunk and the trailer section have been read.
  bool done() const { return state_ == State::kDone; }

 private:
  enum class State {
    kSize,       // hex digits of a chunk size
    kExtension,  // after the size: `;name=value` pairs up to CR
    kSizeLf,     // the LF of the size line
    kData,       // `left_` bytes of data
    kDataCr,     // CRLF after the data
    kDataLf,
    kTrailer,    // a trailer field line, or the empty line that ends the body
    kTrailerLf,  // the LF of a trailer line
    kDone,
  };

  // Reads framing bytes (not data) from the start of `in` until data starts, the body ends, or
  // `in` is used up; the bytes read.
  std::size_t framing(std::string_view in, boost::system::error_code& ec);
  // At the LF ending a size line: the chunk's data, or the trailer after the last chunk.
  void size_line_ended(boost::system::error_code& ec);

  std::uint64_t max_body_;
  std::uint64_t body_ = 0;          // decoded bytes announced so far
  std::uint64_t left_ = 0;          // data bytes left in the current chunk
  std::uint64_t size_ = 0;          // the size being read
  std::uint32_t line_bytes_ = 0;    // bytes of the current size line's extension
  std::uint32_t trailer_line_ = 0;  // bytes of the current trailer line
  std::uint32_t trailer_bytes_ = 0;
  State state_ = State::kSize;
  bool has_digit_ = false;  // the size line has a digit so far
};

}  // namespace inferperf::transport
