#include "records/json_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace inferperf::records {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one (the same checks
// as nlohmann's decoder: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  const std::size_t left = s.size() - i;
  auto cont = [&](std::size_t k) { return k < left && (b(k) & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// Printable ASCII that JSON keeps as it is: copied in runs, not a character at a time (the records
// writer formats every token's text of a streamed run).
bool verbatim(unsigned char c) {
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

// `,"k":` then `value` (already JSON) into `buf`, which the caller sized for both.
std::size_t member_text(std::string_view k, std::string_view value, bool& first, char* buf) {
  std::size_t n = 0;
  if (!first) buf[n++] = ',';
  first = false;
  buf[n++] = '"';
  // An empty view may hold no pointer at all, which memcpy must not be given.
  if (!k.empty()) std::memcpy(buf + n, k.data(), k.size());
  n += k.size();
  buf[n++] = '"';
  buf[n++] = ':';
  if (!value.empty()) std::memcpy(buf + n, value.data(), value.size());
  return n + value.size();
}

}  // namespace

bool is_plain_json_text(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return verbatim(static_cast<unsigned char>(c)); });
}

void put_json_string(std::string_view s, std::string& out) {
  const std::size_t mark = out.size();
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    std::size_t run = i;
    while (run < s.size() && verbatim(static_cast<unsigned char>(s[run]))) ++run;
    out.append(s.data() + i, run - i);
    i = run;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_length(s, i);
      if (n == 0) {
        // Invalid UTF-8: nlohmann's own replacement rules, for this rare string only.
        out.resize(mark);
        out += nlohmann::json(std::string(s))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return;
      }
      out.append(s.data() + i, n);
      i += n;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

void put_json_int(std::int64_t v, std::string& out) {
  const fmt::format_int text(v);
  out.append(text.data(), text.size());
}

void put_json_double(double v, std::string& out) {
  if (!std::isfinite(v)) {
    out.append("null", 4);
    return;
  }
  // The function nlohmann's serializer formats doubles with, so the bytes match its dump().
  std::array<char, 64> buf{};
  const char* end = nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), v);
  out.append(buf.data(), static_cast<std::size_t>(end - buf.data()));
}

void put_json_key(std::string_view k, bool& first, std::string& out) {
  // `,"k":` assembled on the stack and appended once: a record line has some forty keys, and four
  // appends per key (one of them a strlen) were a quarter of the records writer's instructions.
  std::array<char, 64> buf;
  if (k.size() + 4 > buf.size()) {
    if (!first) out.push_back(',');
    first = false;
    out.push_back('"');
    out.append(k);
    out.append("\":", 2);
    return;
  }
  out.append(buf.data(), member_text(k, {}, first, buf.data()));
}

void JsonObjectText::integer(std::string_view k, std::int64_t v) {
  const fmt::format_int text(v);
  std::array<char, 96> buf;
  if (k.size() + text.size() + 4 > buf.size()) {
    put_json_int(v, member(k));
    return;
  }
  out_.append(buf.data(), member_text(k, {text.data(), text.size()}, first_, buf.data()));
}

void JsonObjectText::string(std::string_view k, std::string_view v) {
  std::array<char, 160> buf;
  // The size first: a long value (a whole answer's text) is scanned once, by put_json_string.
  if (k.size() + v.size() + 6 > buf.size() || !is_plain_json_text(v)) {
    put_json_string(v, member(k));
    return;
  }
  std::size_t n = member_text(k, "\"", first_, buf.data());  // `,"k":"`
  if (!v.empty()) std::memcpy(buf.data() + n, v.data(), v.size());
  n += v.size();
  buf[n++] = '"';
  out_.append(buf.data(), n);
}

}  // namespace inferperf::records
