#include "endpoint/chunk_scan.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace inferperf::endpoint {

namespace {

// Deeper values than this in a skipped field send the chunk to the full decoder.
constexpr int kMaxSkipDepth = 32;
// Numbers longer than this (or with an exponent) go to the full decoder, which knows their range.
constexpr std::size_t kMaxNumberChars = 18;

// A strict cursor over one JSON text: every method returns false when the input is not JSON it
// fully understands, and the caller gives up on the fast path.
class ChunkCursor {
 public:
  explicit ChunkCursor(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}

  bool eat(char c) {
    skip_ws();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool next_is(char c) {
    skip_ws();
    return p_ != end_ && *p_ == c;
  }
  bool at_end() {
    skip_ws();
    return p_ == end_;
  }

  // An object key without escapes, and its colon.
  bool key(std::string_view& k) {
    if (!eat('"')) return false;
    const char* begin = p_;
    while (p_ != end_ && *p_ != '"') {
      if (*p_ == '\\' || static_cast<unsigned char>(*p_) < 0x20) return false;
      ++p_;
    }
    if (p_ == end_) return false;
    k = std::string_view(begin, static_cast<std::size_t>(p_ - begin));
    ++p_;
    return eat(':');
  }

  // A string value, unescaped into *out (appended) unless out is null.
  bool string(std::string* out) {
    if (!eat('"')) return false;
    for (;;) {
      const char* begin = p_;
      while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20)
        ++p_;
      if (out) out->append(begin, static_cast<std::size_t>(p_ - begin));
      if (p_ == end_) return false;
      const char c = *p_++;
      if (c == '"') return true;
      if (c != '\\' || !escape(out)) return false;  // a control character or a bad escape
    }
  }

  // The value a string_or_empty() reading would give: the string, or nothing for another type.
  bool string_or_skip(std::string* out, int depth) {
    return next_is('"') ? string(out) : skip_value(depth);
  }

  bool literal(std::string_view word) {
    skip_ws();
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    return true;
  }

  bool skip_value(int depth) {
    if (depth > kMaxSkipDepth) return false;
    skip_ws();
    if (p_ == end_) return false;
    switch (*p_) {
      case '"':
        return string(nullptr);
      case '{':
        return skip_object(depth);
      case '[':
        return skip_array(depth);
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number();
    }
  }

 private:
  void skip_ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  bool escape(std::string* out) {
    if (p_ == end_) return false;
    const char e = *p_++;
    char plain = 0;
    switch (e) {
      case '"':
        plain = '"';
        break;
      case '\\':
        plain = '\\';
        break;
      case '/':
        plain = '/';
        break;
      case 'b':
        plain = '\b';
        break;
      case 'f':
        plain = '\f';
        break;
      case 'n':
        plain = '\n';
        break;
      case 'r':
        plain = '\r';
        break;
      case 't':
        plain = '\t';
        break;
      case 'u':
        return unicode_escape(out);
      default:
        return false;
    }
    if (out) out->push_back(plain);
    return true;
  }

  // \uXXXX outside the surrogates, as UTF-8 (a surrogate pair goes to the full decoder).
  bool unicode_escape(std::string* out) {
    if (end_ - p_ < 4) return false;
    unsigned cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = *p_++;
      unsigned v = 0;
      if (h >= '0' && h <= '9') {
        v = static_cast<unsigned>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        v = static_cast<unsigned>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        v = static_cast<unsigned>(h - 'A' + 10);
      } else {
        return false;
      }
      cp = cp * 16 + v;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) return false;
    if (!out) return true;
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    return true;
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(.[0-9]+)? and short: the grammar's exponent and long numbers are not taken.
  bool number() {
    const char* begin = p_;
    if (p_ != end_ && *p_ == '-') ++p_;
    if (p_ == end_ || !digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && digit(*p_)) ++p_;
    }
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ != end_ && digit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E' || digit(*p_))) return false;
    return static_cast<std::size_t>(p_ - begin) <= kMaxNumberChars;
  }

  bool skip_object(int depth) {
    ++p_;
    if (eat('}')) return true;
    do {
      std::string_view k;
      if (!key(k) || !skip_value(depth + 1)) return false;
    } while (eat(','));
    return eat('}');
  }

  bool skip_array(int depth) {
    ++p_;
    if (eat(']')) return true;
    do {
      if (!skip_value(depth + 1)) return false;
    } while (eat(','));
    return eat(']');
  }

  const char* p_;
  const char* end_;
};

// Marks a key seen; false when it was already (simdjson would read the first, this the last).
bool first_time(bool& seen) {
  if (seen) return false;
  seen = true;
  return true;
}

// choices[0].delta: content and the reasoning text (reasoning_content, else reasoning).
bool scan_delta(ChunkCursor& c, DecodedEvent& out) {
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  std::string reasoning_content, reasoning;
  bool seen_content = false, seen_rc = false, seen_r = false, seen_tools = false;
  do {
    std::string_view k;
    if (!c.key(k)) return false;
    bool ok = true;
    if (k == "content") {
      ok = first_time(seen_content) && c.string_or_skip(&out.content, 3);
    } else if (k == "reasoning_content") {
      ok = first_time(seen_rc) && c.string_or_skip(&reasoning_content, 3);
    } else if (k == "reasoning") {
      ok = first_time(seen_r) && c.string_or_skip(&reasoning, 3);
    } else if (k == "tool_calls") {
      ok = first_time(seen_tools) && c.literal("null");  // calls go to the full decoder
    } else {
      ok = c.skip_value(3);
    }
    if (!ok) return false;
  } while (c.eat(','));
  if (!c.eat('}')) return false;
  out.reasoning = !reasoning_content.empty() ? std::move(reasoning_content) : std::move(reasoning);
  return true;
}

bool scan_first_choice(ChunkCursor& c, ChunkShape shape, DecodedEvent& out) {
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  bool seen_finish = false, seen_text = false;
  do {
    std::string_view k;
    if (!c.key(k)) return false;
    bool ok = true;
    if (k == "finish_reason") {
      ok = first_time(seen_finish) && c.string_or_skip(&out.finish_reason, 2);
    } else if (shape == ChunkShape::kChat && k == "delta") {
      ok = first_time(seen_text) && c.next_is('{') && scan_delta(c, out);
    } else if (shape == ChunkShape::kCompletions && k == "text") {
      ok = first_time(seen_text) && c.string_or_skip(&out.content, 2);
    } else {
      ok = c.skip_value(2);
    }
    if (!ok) return false;
  } while (c.eat(','));
  return c.eat('}');
}

bool scan_choices(ChunkCursor& c, ChunkShape shape, DecodedEvent& out) {
  if (!c.eat('[')) return false;
  if (c.eat(']')) return true;
  if (!c.next_is('{') || !scan_first_choice(c, shape, out)) return false;
  while (c.eat(',')) {
    if (!c.skip_value(1)) return false;
  }
  return c.eat(']');
}

bool expected_object(std::string_view object, ChunkShape shape) {
  if (shape == ChunkShape::kChat) return object == "chat.completion.chunk";
  return object == "text_completion" || object == "completion";
}

// The top-level keys a plain chunk carries and the full decoder does not read.
bool ignored_top_key(std::string_view k) {
  return k == "id" || k == "created" || k == "model" || k == "system_fingerprint" ||
         k == "service_tier";
}

// Eight bytes at a time: the high bit of any byte set means UTF-8 (or garbage) somewhere.
bool plain_ascii(std::string_view s) {
  std::uint64_t any = 0;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, s.data() + i, 8);
    any |= word;
  }
  for (; i < s.size(); ++i) any |= static_cast<unsigned char>(s[i]);
  return (any & 0x8080808080808080ULL) == 0;
}

bool scan_top(ChunkCursor& c, ChunkShape shape, DecodedEvent& out) {
  if (!c.eat('{') || c.eat('}')) return false;  // no "object": the full decoder's error
  bool seen_object = false, seen_choices = false, seen_usage = false;
  do {
    std::string_view k;
    if (!c.key(k)) return false;
    bool ok = true;
    if (k == "object") {
      std::string object;
      ok = first_time(seen_object) && c.string(&object) && expected_object(object, shape);
    } else if (k == "choices") {
      ok = first_time(seen_choices) && scan_choices(c, shape, out);
    } else if (k == "usage") {
      ok = first_time(seen_usage) && c.literal("null");  // counts go to the full decoder
    } else {
      ok = ignored_top_key(k) && c.skip_value(1);
    }
    if (!ok) return false;
  } while (c.eat(','));
  return c.eat('}') && c.at_end() && seen_object;
}

}  // namespace

bool scan_chunk(std::string_view payload, ChunkShape shape, DecodedEvent& out) {
  if (!plain_ascii(payload)) return false;
  ChunkCursor c(payload);
  if (!scan_top(c, shape, out)) return false;
  out.kind = DecodedEvent::Kind::kData;
  return true;
}

}  // namespace inferperf::endpoint
