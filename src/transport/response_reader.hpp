// The response side of one exchange attempt: the head parsed by Beast's parser, a chunked body by
// ChunkedBody in the same pass that hands it to the sink, and the bytes a read left unparsed. Fed
// with each read's bytes and stamp by whichever read loop runs the socket (plain_read for TCP and
// Unix sockets, the TLS loop in http_exchange).
#pragma once
#include <boost/system/error_code.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "transport/chunked_body.hpp"
#include "transport/http_exchange.hpp"
#include "transport/response_parser.hpp"

namespace inferperf::transport {

class ResponseReader {
 public:
  explicit ResponseReader(std::uint64_t max_body_bytes);

  bool done() const { return chunked_ ? chunked_->done() : parser_.is_done(); }
  const ResponseParser& parser() const { return parser_; }
  // Every byte read was parsed: a connection with leftovers is never reused.
  bool all_used() const { return pending_.empty() && !leftover_; }

  // Takes the bytes `read` (one socket read, stamped `ts`): counts them in `t`, parses them and
  // hands the head and body to `sink`. Returns the parser's error (an invalid or oversized
  // response), empty when the bytes were good.
  boost::system::error_code consume(std::string_view read, core::MonoNs ts, ExchangeTimings& t,
                                    ResponseSink& sink);
  // At end of stream: true when it completes a body delimited by connection close.
  bool ends_at_close(const boost::system::error_code& ec);

 private:
  // Beast's part: the head, then a body that is not chunked. Sets `body` to the bytes of `read`
  // that follow a chunked head (they belong to ChunkedBody), empty otherwise.
  boost::system::error_code parse(std::string_view read, std::string_view& body);
  void deliver(core::MonoNs ts, std::uint32_t read_index, ExchangeTimings& t, ResponseSink& sink);

  std::uint64_t max_body_bytes_;
  ResponseParser parser_;
  std::optional<ChunkedBody> chunked_;  // once the head says chunked
  std::string pending_;
  std::string handoff_;    // a chunked body's first bytes when they followed a head split by reads
  std::string gathered_;   // the chunks of one read, when it brought more than one
  bool leftover_ = false;  // bytes after the end of a chunked body
  bool headers_reported_ = false;
};

}  // namespace inferperf::transport
