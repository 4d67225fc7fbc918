#include "transport/response_head.hpp"

#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "core/http_token.hpp"

namespace inferperf::transport {

namespace {

using boost::system::error_code;
namespace http = boost::beast::http;

// The longest folded (obs-fold) value, joined: Beast's max_obs_fold.
constexpr std::size_t kMaxFoldedValue = 4096;

using core::is_http_token_char;
bool is_ows(char c) {
  return c == ' ' || c == '\t';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::uint64_t load8(const char* p) {
  std::uint64_t w = 0;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// Case-insensitive equality of a token (field name or list token: tchar only) with a constant of
// lower-case letters and '-'. Setting bit 0x20 lowers a letter and keeps '-'; no other tchar
// becomes a letter or '-' by it, so the test is exact for such inputs. Eight bytes a step.
bool iequals(std::string_view token, std::string_view lower) {
  if (token.size() != lower.size()) return false;
  constexpr std::uint64_t kLowerBits = 0x2020202020202020;
  std::size_t i = 0;
  for (; i + 8 <= token.size(); i += 8) {
    if ((load8(token.data() + i) | kLowerBits) != load8(lower.data() + i)) return false;
  }
  for (; i < token.size(); ++i) {
    if (static_cast<char>(token[i] | 0x20) != lower[i]) return false;
  }
  return true;
}

enum class LineEnd { kFound, kNeedMore, kBadLineEnding, kInvalid };

// Whether [p, end) holds a byte a line's text may not: a control character other than HTAB, or
// DEL. No early exit, so that the compiler checks many bytes a step.
bool has_control(const char* p, const char* end) {
  unsigned bad = 0;
  for (; p < end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    bad |= static_cast<unsigned>(c < 0x20 && c != '\t') | static_cast<unsigned>(c == 0x7f);
  }
  return bad != 0;
}

// A reason's or a value's text from `p` to its CRLF: SP, HTAB, visible ASCII and obs-text
// (0x80-0xFF); any other control character before the CR is kInvalid. On kFound `text_end` is the
// CR and `p` is past the LF. The CR is found first (memchr), then the text before it checked.
LineEnd line_end(const char*& p, const char* last, const char*& text_end) {
  const char* const start = p;
  const auto* cr =
      static_cast<const char*>(std::memchr(start, '\r', static_cast<std::size_t>(last - start)));
  if (has_control(start, cr != nullptr ? cr : last)) return LineEnd::kInvalid;
  if (cr == nullptr || cr + 1 >= last) return LineEnd::kNeedMore;
  if (cr[1] != '\n') return LineEnd::kBadLineEnding;
  text_end = cr;
  p = cr + 2;
  return LineEnd::kFound;
}

error_code line_error(LineEnd e, http::error invalid) {
  if (e == LineEnd::kNeedMore) return http::error::need_more;
  if (e == LineEnd::kBadLineEnding) return http::error::bad_line_ending;
  return invalid;
}

// A #rule list of tokens (RFC 7230 7: elements separated by commas and optional whitespace,
// empty elements allowed): calls `on` with each token in order; false at the first syntax error
// (two tokens without a comma, or a character that is neither), after the tokens before it.
template <class OnToken>
bool walk_token_list(std::string_view s, OnToken on) {
  const char* it = s.data();
  const char* const end = it + s.size();
  bool need_comma = false;
  for (;;) {
    while (it != end && is_ows(*it)) ++it;
    if (it == end) return true;
    if (is_http_token_char(*it)) {
      if (need_comma) return false;
      const char* const start = it;
      while (it != end && is_http_token_char(*it)) ++it;
      on(std::string_view(start, static_cast<std::size_t>(it - start)));
      need_comma = true;
      continue;
    }
    if (*it != ',') return false;
    need_comma = false;
    ++it;
  }
}

// Digits only, no overflow of 64 bits.
bool parse_decimal(std::string_view s, std::uint64_t& v) {
  if (s.empty()) return false;
  std::uint64_t n = 0;
  for (const char c : s) {
    if (!is_digit(c)) return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (n > (UINT64_MAX - d) / 10) return false;
    n = n * 10 + d;
  }
  v = n;
  return true;
}

// The facts of a head the fields decide, as they are read.
struct FieldState {
  bool has_length = false;
  bool chunked = false;
};

error_code apply_connection(std::string_view value, ResponseHead& head) {
  bool close = false;
  bool keep_alive = false;
  const bool valid = walk_token_list(value, [&](std::string_view t) {
    if (iequals(t, "close")) close = true;
    if (iequals(t, "keep-alive")) keep_alive = true;
  });
  if (!valid) return http::error::bad_value;
  head.connection_close = head.connection_close || close;
  head.connection_keep_alive = head.connection_keep_alive || keep_alive;
  return {};
}

// A list of equal decimal values ("5" or "5, 5"): each repetition must match the first, and
// across fields too; an empty element is refused.
error_code apply_content_length(std::string_view value, FieldState& st, ResponseHead& head) {
  if (st.chunked) return http::error::bad_content_length;
  std::size_t tokens = 0;
  const bool valid = walk_token_list(value, [&](std::string_view) { ++tokens; });
  if (tokens == 0 || !valid) return http::error::bad_content_length;
  const auto elements = static_cast<std::size_t>(1 + std::count(value.begin(), value.end(), ','));
  bool has = st.has_length;
  std::uint64_t length = head.content_length;
  // Beast checks each token in order, then that no element was empty.
  error_code first_error;
  walk_token_list(value, [&](std::string_view t) {
    std::uint64_t v = 0;
    if (first_error) return;
    if (!parse_decimal(t, v)) {
      first_error = http::error::bad_content_length;
    } else if (has && v != length) {
      first_error = http::error::multiple_content_length;
    } else {
      has = true;
      length = v;
    }
  });
  if (first_error) return first_error;
  if (tokens != elements) return http::error::bad_content_length;
  st.has_length = true;
  head.content_length = length;
  return {};
}

// Chunked when the first "chunked" token is the list's last (the list read up to any syntax
// error, which ends it quietly as Beast's token_list does); any other coding leaves the body
// delimited by close.
error_code apply_transfer_encoding(std::string_view value, FieldState& st) {
  if (st.chunked || st.has_length) return http::error::bad_transfer_encoding;
  std::size_t tokens = 0;
  std::size_t first_chunked = SIZE_MAX;
  walk_token_list(value, [&](std::string_view t) {
    if (first_chunked == SIZE_MAX && iequals(t, "chunked")) first_chunked = tokens;
    ++tokens;
  });
  st.chunked = first_chunked != SIZE_MAX && first_chunked + 1 == tokens;
  return {};
}

error_code apply_field(std::string_view name, std::string_view value, FieldState& st,
                       ResponseHead& head) {
  switch (name.size()) {  // the few names that matter, told apart by length first
    case 10:
      if (iequals(name, "connection")) return apply_connection(value, head);
      break;
    case 12:
      if (iequals(name, "content-type")) head.content_type.assign(value);
      break;
    case 14:
      if (iequals(name, "content-length")) return apply_content_length(value, st, head);
      break;
    case 16:
      if (iequals(name, "proxy-connection")) return apply_connection(value, head);
      break;
    case 17:
      if (iequals(name, "transfer-encoding")) return apply_transfer_encoding(value, st);
      break;
    default:
      break;
  }
  return {};
}

// One field's lines from `p` (not the blank line): its name and value (a folded value joined in
// `folded`); `p` moves past them.
error_code parse_field(const char*& p, const char* last, std::string_view& name,
                       std::string_view& value, std::string& folded) {
  const char* const start = p;
  const auto* colon =
      static_cast<const char*>(std::memchr(start, ':', static_cast<std::size_t>(last - start)));
  const char* const name_end = colon != nullptr ? colon : last;
  while (p < name_end && is_http_token_char(*p)) ++p;
  if (p < name_end) return http::error::bad_field;  // not a token character, before any colon
  if (colon == nullptr) return http::error::need_more;
  if (p == start) return http::error::bad_field;
  name = std::string_view(start, static_cast<std::size_t>(p - start));
  ++p;
  bool folding = false;
  for (;;) {
    for (;; ++p) {
      if (p >= last) return http::error::need_more;
      if (!is_ows(*p)) break;
    }
    const char* const text = p;
    const char* text_end = nullptr;
    const LineEnd e = line_end(p, last, text_end);
    if (e != LineEnd::kFound) return line_error(e, http::error::bad_value);
    // The byte after the CRLF tells whether the value goes on (obs-fold).
    if (p >= last) return http::error::need_more;
    while (text_end != text && is_ows(text_end[-1])) --text_end;
    const auto length = static_cast<std::size_t>(text_end - text);
    const bool goes_on = is_ows(*p);
    if (!folding && !goes_on) {
      value = std::string_view(text, length);
      return {};
    }
    if (length > 0) {
      const std::size_t joined = folding ? folded.size() + 1 + length : length;
      if (joined > kMaxFoldedValue) return http::error::header_limit;
      if (folding) {
        folded.push_back(' ');
      } else {
        folded.clear();
        folding = true;  // an empty first line is skipped: the next line starts the value
      }
      folded.append(text, length);
    }
    if (!goes_on) {
      value = folded;
      return {};
    }
    ++p;
  }
}

// "HTTP/d.d SP ddd SP reason CRLF"; HTTP/1.0 and 1.1 only.
error_code parse_status_line(const char*& p, const char* last, ResponseHead& head) {
  if (last - p < 8) return http::error::need_more;
  if (std::memcmp(p, "HTTP/", 5) != 0 || !is_digit(p[5]) || p[6] != '.' || !is_digit(p[7]))
    return http::error::bad_version;
  head.version = 10 * (p[5] - '0') + (p[7] - '0');
  if (head.version != 10 && head.version != 11) return http::error::bad_version;
  p += 8;
  if (p >= last) return http::error::need_more;
  if (*p++ != ' ') return http::error::bad_version;
  if (last - p < 4) return http::error::need_more;
  if (!is_digit(p[0]) || !is_digit(p[1]) || !is_digit(p[2]) || p[3] != ' ')
    return http::error::bad_status;
  head.status = 100 * (p[0] - '0') + 10 * (p[1] - '0') + (p[2] - '0');
  p += 4;
  const char* const text = p;
  const char* text_end = nullptr;
  const LineEnd e = line_end(p, last, text_end);
  if (e != LineEnd::kFound) return line_error(e, http::error::bad_reason);
  head.reason.assign(text, static_cast<std::size_t>(text_end - text));
  return {};
}

error_code parse_fields(const char*& p, const char* last, bool keep_fields, FieldState& st,
                        ResponseHead& head) {
  std::string folded;
  for (;;) {
    if (last - p < 2) return http::error::need_more;
    if (p[0] == '\r') {
      if (p[1] != '\n') return http::error::bad_line_ending;
      p += 2;
      return {};
    }
    std::string_view name;
    std::string_view value;
    if (const error_code ec = parse_field(p, last, name, value, folded)) return ec;
    if (const error_code ec = apply_field(name, value, st, head)) return ec;
    if (keep_fields) {
      std::string& out = head.fields_text;
      out.append(name);
      out.append(": ");
      out.append(value);
      out.push_back('\n');
    }
  }
}

// How the body ends, from the status and the framing fields (RFC 7230 3.3.3, as Beast decides).
error_code frame_body(const FieldState& st, std::uint64_t max_body_bytes, ResponseHead& head) {
  if (head.status / 100 == 1 || head.status == 204 || head.status == 304) {
    head.framing = BodyFraming::kNone;  // a Content-Length there describes no body
  } else if (st.has_length) {
    if (head.content_length == 0) {
      head.framing = BodyFraming::kNone;
    } else {
      if (max_body_bytes > 0 && head.content_length > max_body_bytes)
        return http::error::body_limit;
      head.framing = BodyFraming::kLength;
    }
  } else if (st.chunked) {
    head.framing = BodyFraming::kChunked;
  } else {
    head.framing = BodyFraming::kClose;
  }
  return {};
}

}  // namespace

std::size_t parse_response_head(const char* p, const char* last, bool keep_fields,
                                std::uint64_t max_body_bytes, ResponseHead& head, error_code& ec) {
  const char* const start = p;
  // Beast's header limit as Beast applies it: to the status line, then to the fields from where
  // they start, each over the bytes at hand; running out within the limit is need_more, past it
  // header_limit.
  auto within_limit = [last](const char* from, bool& over) {
    over = static_cast<std::size_t>(last - from) >= kMaxResponseHeadBytes;
    return over ? from + kMaxResponseHeadBytes : last;
  };
  bool over = false;
  FieldState st;
  ec = parse_status_line(p, within_limit(p, over), head);
  if (!ec) ec = parse_fields(p, within_limit(p, over), keep_fields, st, head);
  if (ec == http::error::need_more && over) ec = http::error::header_limit;
  if (!ec) ec = frame_body(st, max_body_bytes, head);
  return ec ? 0 : static_cast<std::size_t>(p - start);
}

}  // namespace inferperf::transport
