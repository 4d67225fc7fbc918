// Beast's basic_parser as the reference the response reader is compared with (its head parser,
// response_head.hpp, and its chunked framing, chunked_body.hpp, replaced Beast in the exchange):
// the unit tests and the http fuzz harness feed both the same bytes. Eager: put() parses the head
// and decodes any body, gathered in body_out().
#pragma once
#include <boost/beast/http/basic_parser.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace inferperf::transport {

class BeastResponseParser final : public boost::beast::http::basic_parser<false> {
 public:
  // `max_body_bytes`: the decoded body bytes past which put() fails with http::error::body_limit
  // (a Content-Length above it fails as soon as the head is parsed); 0 = no cap.
  explicit BeastResponseParser(std::uint64_t max_body_bytes = 0) {
    eager(true);
    if (max_body_bytes > 0) {
      body_limit(max_body_bytes);
    } else {
      body_limit(boost::none);
    }
    header_limit(1024 * 1024);  // as the exchange's own limit (kMaxResponseHeadBytes)
  }

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
  void on_response_impl(int code, string_view reason, int, error_code&) override {
    status_ = code;
    reason_.assign(reason.data(), reason.size());
  }
  void on_field_impl(boost::beast::http::field name, string_view name_string, string_view value,
                     error_code&) override {
    if (name == boost::beast::http::field::content_type)
      content_type_.assign(value.data(), value.size());
    if (!keep_fields_) return;
    headers_text_.append(name_string.data(), name_string.size());
    headers_text_.append(": ");
    headers_text_.append(value.data(), value.size());
    headers_text_.append("\n");
  }
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(boost::optional<std::uint64_t> const&, error_code&) override {}
  std::size_t on_body_impl(string_view body, error_code&) override {
    body_.append(body.data(), body.size());
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override {
    body_.append(body.data(), body.size());
    return body.size();
  }
  void on_finish_impl(error_code&) override {}

  int status_ = 0;
  std::string reason_;
  std::string content_type_;
  std::string headers_text_;
  std::string body_;
  bool keep_fields_ = true;
};

}  // namespace inferperf::transport
