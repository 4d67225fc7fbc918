#include "transport/response_parser.hpp"

namespace inferperf::transport {

ResponseParser::ResponseParser(std::uint64_t max_body_bytes) {
  eager(true);
  if (max_body_bytes > 0) {
    body_limit(max_body_bytes);
  } else {
    body_limit(boost::none);
  }
  header_limit(1024 * 1024);
}

void ResponseParser::on_response_impl(int code, string_view reason, int, error_code&) {
  status_ = code;
  reason_.assign(reason.data(), reason.size());
}

void ResponseParser::on_field_impl(boost::beast::http::field name, string_view name_string,
                                   string_view value, error_code&) {
  if (name == boost::beast::http::field::content_type)
    content_type_.assign(value.data(), value.size());
  if (!keep_fields_) return;
  headers_text_.append(name_string.data(), name_string.size());
  headers_text_.append(": ");
  headers_text_.append(value.data(), value.size());
  headers_text_.append("\n");
}

std::size_t ResponseParser::on_body_impl(string_view body, error_code&) {
  body_.append(body.data(), body.size());
  return body.size();
}

std::size_t ResponseParser::on_chunk_body_impl(std::uint64_t, string_view body, error_code&) {
  body_.append(body.data(), body.size());
  return body.size();
}

}  // namespace inferperf::transport
