// An HTTP/1.x response head (status line and fields) parsed in one pass over bytes already read,
// with the rules Beast's basic_parser applies to a response (its error codes, limits, list syntax
// and body framing): given the same whole head, the same facts or the same error. Beast parsed
// every response head before, at more instructions (docs/decisions.md, "The response head parsed
// by our own parser", where the one difference, a head cut by reads, is written up).
// ResponseReader calls it; the tests and the http fuzz harness compare it with Beast.
#pragma once
#include <boost/system/error_code.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace inferperf::transport {

// How the body after a head ends.
enum class BodyFraming {
  kNone,     // no body: 1xx, 204, 304, or Content-Length 0
  kLength,   // Content-Length bytes
  kChunked,  // Transfer-Encoding ending in chunked
  kClose,    // neither: the body runs to the end of the connection
};

struct ResponseHead {
  int version = 0;  // 10 or 11
  int status = 0;
  std::string reason;
  std::string content_type;  // the last Content-Type field's value
  // Every field as "name: value\n" (a folded value joined by single spaces), when asked for.
  std::string fields_text;
  BodyFraming framing = BodyFraming::kNone;
  std::uint64_t content_length = 0;    // kLength only
  bool connection_close = false;       // a Connection or Proxy-Connection token "close"
  bool connection_keep_alive = false;  // ... "keep-alive"

  // Whether the connection may carry another exchange after this response (Beast's rule).
  bool keep_alive() const {
    if (framing == BodyFraming::kClose) return false;
    return version >= 11 ? !connection_close : connection_keep_alive;
  }
};

// The most bytes the status line may take, and the fields (the blank line included) after it:
// Beast's header_limit as the exchange set it, counted per part as Beast counts it.
inline constexpr std::size_t kMaxResponseHeadBytes = 1024 * 1024;

// Parses the head at the start of [p, last): returns the bytes it took (through its blank line)
// and fills `head` (as default-constructed before the call: nothing is cleared), or 0 with `ec`
// set: http::error::need_more when the bytes end before the head does (nothing in them is wrong
// yet), else the error Beast gives for that head (bad_version, bad_status, bad_reason, bad_field,
// bad_value, bad_line_ending, bad_content_length, multiple_content_length, bad_transfer_encoding,
// header_limit, body_limit). A Content-Length above `max_body_bytes` (0: no cap) is body_limit, as
// soon as the head is whole.
std::size_t parse_response_head(const char* p, const char* last, bool keep_fields,
                                std::uint64_t max_body_bytes, ResponseHead& head,
                                boost::system::error_code& ec);

}  // namespace inferperf::transport
