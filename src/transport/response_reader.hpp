// The response side of one exchange attempt: the head parsed by parse_response_head, a body by
// length or by close handed on as it is read, a chunked body framed by ChunkedBody in the same
// pass, and the bytes a read left unparsed. Fed with each read's bytes and stamp by whichever read
// loop runs the socket (plain_read for TCP and Unix sockets, the TLS loop in http_exchange).
#pragma once
#include <boost/system/error_code.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "transport/chunked_body.hpp"
#include "transport/http_exchange.hpp"
#include "transport/response_head.hpp"

namespace inferperf::transport {

class ResponseReader {
 public:
  explicit ResponseReader(std::uint64_t max_body_bytes);

  bool done() const { return chunked_ ? chunked_->done() : done_; }
  bool head_done() const { return head_done_; }
  // The parsed head; meaningful once head_done().
  const ResponseHead& head() const { return head_; }
  // Every byte read was parsed: a connection with leftovers is never reused.
  bool all_used() const { return pending_.empty() && !leftover_; }

  // Takes the bytes `read` (one socket read, stamped `ts`): counts them in `t`, parses them and
  // hands the head and body to `sink`. Returns the parse error (an invalid or oversized response,
  // as boost::beast::http::error codes), empty when the bytes were good.
  boost::system::error_code consume(std::string_view read, core::MonoNs ts, ExchangeTimings& t,
                                    ResponseSink& sink);
  // At end of stream: true when it completes a body delimited by connection close.
  bool ends_at_close(const boost::system::error_code& ec);

 private:
  // The head from this read's bytes after any earlier reads' part of it; `body` is set to the
  // bytes after the head once it is whole.
  boost::system::error_code take_head(std::string_view read, bool keep_fields,
                                      std::string_view& body);
  // A body by length or by close: handed on as it is, up to its end.
  boost::system::error_code take_plain_body(std::string_view body, core::MonoNs ts,
                                            std::uint32_t read_index, ResponseSink& sink);

  std::uint64_t max_body_bytes_;
  ResponseHead head_;
  std::optional<ChunkedBody> chunked_;  // once the head says chunked
  std::uint64_t body_left_ = 0;  // kLength: bytes still to come; kClose: bytes the cap still allows
  std::string pending_;          // a head cut by reads, until its blank line arrives
  std::string handoff_;   // the first body bytes of the read that completed a head cut by reads
  std::string gathered_;  // the chunks of one read, when it brought more than one
  bool head_done_ = false;
  bool done_ = false;      // the response is whole (not chunked)
  bool leftover_ = false;  // bytes after the end of the response
};

}  // namespace inferperf::transport
