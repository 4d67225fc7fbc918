#include "http_text.hpp"

#include <boost/beast/http/status.hpp>

namespace inferperf::mock::detail {

namespace {
std::string reason_phrase(int status) {
  namespace http = boost::beast::http;
  auto r = http::obsolete_reason(static_cast<http::status>(status));
  return r.empty() ? "Unknown" : std::string(r.data(), r.size());
}
}  // namespace

std::string plain_response(int status, std::string_view content_type, std::string_view body,
                           bool keep_alive) {
  return fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: {}\r\n\r\n{}",
      status, reason_phrase(status), content_type, body.size(), keep_alive ? "keep-alive" : "close",
      body);
}

std::string sse_head(bool keep_alive) {
  return fmt::format(
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
      "Transfer-Encoding: chunked\r\nConnection: {}\r\n\r\n",
      keep_alive ? "keep-alive" : "close");
}

}  // namespace inferperf::mock::detail
