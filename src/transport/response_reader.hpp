// The response side of one exchange attempt: the parser and the bytes a read left unparsed. Fed
// with each read's bytes and stamp by whichever read loop runs the socket (plain_read for TCP and
// Unix sockets, the TLS loop in http_exchange).
#pragma once
#include <boost/system/error_code.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "transport/http_exchange.hpp"
#include "transport/response_parser.hpp"

namespace inferperf::transport {

class ResponseReader {
 public:
  explicit ResponseReader(std::uint64_t max_body_bytes) : parser_(max_body_bytes) {}

  bool done() const { return parser_.is_done(); }
  const ResponseParser& parser() const { return parser_; }
  // Every byte read was parsed: a connection with leftovers is never reused.
  bool all_used() const { return pending_.empty(); }

  // Takes the bytes `read` (one socket read, stamped `ts`): counts them in `t`, parses them and
  // hands the head and body to `sink`. Returns the parser's error (an invalid or oversized
  // response), empty when the bytes were good.
  boost::system::error_code consume(std::string_view read, core::MonoNs ts, ExchangeTimings& t,
                                    ResponseSink& sink);
  // At end of stream: true when it completes a body delimited by connection close.
  bool ends_at_close(const boost::system::error_code& ec);

 private:
  boost::system::error_code parse(std::string_view read);
  void deliver(core::MonoNs ts, std::uint32_t read_index, ExchangeTimings& t, ResponseSink& sink);

  ResponseParser parser_;
  std::string pending_;
  bool headers_reported_ = false;
};

}  // namespace inferperf::transport
