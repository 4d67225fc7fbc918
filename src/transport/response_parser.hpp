// HTTP/1.1 response parser fed with raw bytes the caller has already timestamped. Built on Beast's
// basic_parser so the head and bodies delimited by length or by close are parsed by a well-kept
// implementation, while the socket reads (and their timestamps) stay in our hands. ResponseReader
// stops it at the head of a chunked response and frames that body itself (chunked_body.hpp); the
// parser's own chunked decoding (eager, as constructed) is the reference the tests compare with.
#pragma once
#include <boost/beast/http/basic_parser.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace inferperf::transport {

class ResponseParser final : public boost::beast::http::basic_parser<false> {
 public:
  // `max_body_bytes`: the decoded body bytes past which put() fails with http::error::body_limit
  // (a Content-Length above it fails as soon as the head is parsed); 0 = no cap.
  explicit ResponseParser(std::uint64_t max_body_bytes = 0);

  int status() const { return status_; }
  const std::string& reason() const { return reason_; }
  const std::string& content_type() const { return content_type_; }
  const std::string& headers_text() const { return headers_text_; }
  // Whether headers_text() gathers the fields (on by default); set before the head is parsed.
  void keep_fields(bool on) { keep_fields_ = on; }
  // Decoded body bytes produced by the last put() calls; the caller drains it.
  std::string& body_out() { return body_; }

 private:
  using string_view = boost::beast::string_view;
  using error_code = boost::beast::error_code;
  void on_request_impl(boost::beast::http::verb, string_view, string_view, int,
                       error_code&) override {}
  void on_response_impl(int code, string_view reason, int version, error_code& ec) override;
  void on_field_impl(boost::beast::http::field name, string_view name_string, string_view value,
                     error_code& ec) override;
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(boost::optional<std::uint64_t> const&, error_code&) override {}
  std::size_t on_body_impl(string_view body, error_code& ec) override;
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t remain, string_view body, error_code& ec) override;
  void on_finish_impl(error_code&) override {}

  int status_ = 0;
  std::string reason_;
  std::string content_type_;
  std::string headers_text_;
  std::string body_;
  bool keep_fields_ = true;
};

}  // namespace inferperf::transport
