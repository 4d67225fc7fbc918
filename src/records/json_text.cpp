#include "records/json_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>

#include "core/json_bytes.hpp"

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

// "00" to "99", two characters each.
constexpr std::array<char, 200> kDigitPairs = [] {
  std::array<char, 200> t{};
  for (int i = 0; i < 100; ++i) {
    t[2 * i] = static_cast<char>('0' + i / 10);
    t[2 * i + 1] = static_cast<char>('0' + i % 10);
  }
  return t;
}();

// The eight decimal digits of `n` (< 10^8), leading zeros kept, as values 0-9 in the bytes of a
// word, the first digit in the lowest byte: the two halves of four digits, then each half's two
// pairs, then each pair's two digits are split in all lanes at once by multiplying with a
// reciprocal (exact for these ranges: 10486 / 2^20 below 10,000, 103 / 2^10 below 100). The
// records writer formats a 19-digit timestamp per streamed event; a digit pair at a time from
// the right cost a division each.
std::uint64_t eight_digits(std::uint32_t n) {
  static_assert(std::endian::native == std::endian::little, "digits are stored low byte first");
  std::uint64_t v = (n / 10000) | (static_cast<std::uint64_t>(n % 10000) << 32);
  std::uint64_t q = ((v * 10486) >> 20) & 0x0000007F0000007FULL;
  v = q | ((v - q * 100) << 16);
  q = ((v * 103) >> 10) & 0x000F000F000F000FULL;
  return q | ((v - q * 10) << 8);
}

constexpr std::uint64_t kAsciiZeros = 0x3030303030303030ULL;

void put_eight_digits(std::uint32_t n, char* p) {
  const std::uint64_t text = eight_digits(n) | kAsciiZeros;
  std::memcpy(p, &text, 8);
}

// `n` (< 10,000) without leading zeros from the pairs' table: a read's index, a timestamp's top
// digits.
std::size_t put_small_digits(std::uint32_t n, char* p) {
  if (n < 10) {
    *p = static_cast<char>('0' + n);
    return 1;
  }
  if (n < 100) {
    std::memcpy(p, &kDigitPairs[2 * n], 2);
    return 2;
  }
  const std::uint32_t high = n / 100;
  const std::uint32_t low = n % 100;
  std::size_t at = 0;
  if (high < 10) {
    p[at++] = static_cast<char>('0' + high);
  } else {
    std::memcpy(p, &kDigitPairs[2 * high], 2);
    at = 2;
  }
  std::memcpy(p + at, &kDigitPairs[2 * low], 2);
  return at + 2;
}

// `n` (< 10^8) without leading zeros; at least one digit. Above four digits, the leading zeros
// are the word's low zero bytes.
std::size_t put_leading_digits(std::uint32_t n, char* p) {
  if (n < 10000) return put_small_digits(n, p);
  const std::uint64_t text = eight_digits(n) | kAsciiZeros;
  const int zeros = std::countr_zero(text ^ kAsciiZeros) / 8;
  const auto count = static_cast<std::size_t>(8 - zeros);
  std::memcpy(p, reinterpret_cast<const char*>(&text) + zeros, count);
  return count;
}

// An unsigned value's digits: the leading group without zeros, then whole groups of eight.
std::size_t put_unsigned(std::uint64_t v, char* p) {
  constexpr std::uint64_t kGroup = 100'000'000;
  if (v < kGroup) return put_leading_digits(static_cast<std::uint32_t>(v), p);
  const std::uint64_t upper = v / kGroup;
  const auto last = static_cast<std::uint32_t>(v % kGroup);
  std::size_t n = 0;
  if (upper < kGroup) {
    n = put_leading_digits(static_cast<std::uint32_t>(upper), p);
  } else {
    // At most 922 above two groups of eight (2^63 has 19 digits).
    n = put_leading_digits(static_cast<std::uint32_t>(upper / kGroup), p);
    put_eight_digits(static_cast<std::uint32_t>(upper % kGroup), p + n);
    n += 8;
  }
  put_eight_digits(last, p + n);
  return n + 8;
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
  const char* end = s.data() + s.size();
  return core::json_plain_run_end(s.data(), end) == end;
}

void put_json_string(std::string_view s, std::string& out) {
  const std::size_t mark = out.size();
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    // Printable ASCII, which JSON keeps as it is, copied in runs (core/json_bytes.hpp).
    const auto run = static_cast<std::size_t>(
        core::json_plain_run_end(s.data() + i, s.data() + s.size()) - s.data());
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

std::size_t format_json_int(std::int64_t v, char* buf) {
  if (v >= 0) return put_unsigned(static_cast<std::uint64_t>(v), buf);
  buf[0] = '-';
  // The magnitude in unsigned arithmetic: -v overflows for the lowest value.
  return 1 + put_unsigned(0 - static_cast<std::uint64_t>(v), buf + 1);
}

void put_json_int(std::int64_t v, std::string& out) {
  std::array<char, kJsonIntMaxBytes> text;
  out.append(text.data(), format_json_int(v, text.data()));
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

void JsonObjectText::string(std::string_view k, std::string_view v) {
  // The size first: a long value (a whole answer's text) is scanned once, by put_json_string.
  char* p = k.size() + v.size() + 6 <= kStage && is_plain_json_text(v)
                ? room(k.size() + v.size() + 6)
                : nullptr;
  if (p == nullptr) {
    put_json_string(v, member(k));
    return;
  }
  p = put_key(k, p);
  *p++ = '"';
  if (!v.empty()) std::memcpy(p, v.data(), v.size());
  p += v.size();
  *p++ = '"';
  used_ = end_of(p);
}

}  // namespace inferperf::records
