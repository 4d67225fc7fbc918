#include "endpoint/chunk_scan.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "core/json_bytes.hpp"

namespace inferperf::endpoint {

namespace {

// Deeper values than this in a skipped field send the chunk to the full decoder.
constexpr int kMaxSkipDepth = 32;
// Numbers longer than this (or with an exponent) go to the full decoder, which knows their range.
constexpr std::size_t kMaxNumberChars = 18;

// `k` is the literal (constant size: the comparison compiles to a few integer compares).
template <std::size_t N>
bool is(std::string_view k, const char (&literal)[N]) {
  return k.size() == N - 1 && std::memcmp(k.data(), literal, N - 1) == 0;
}

// A strict cursor over one JSON text: every method returns false when the input is not JSON it
// fully understands, and the caller gives up on the fast path.
class ChunkCursor {
 public:
  explicit ChunkCursor(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}

  const char* pos() const { return p_; }
  bool at_end_exactly() const { return p_ == end_; }

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

  // A string without escapes (an object key, "object"'s value) as it stands in the text.
  bool plain_string(std::string_view& s) {
    if (!eat('"')) return false;
    const char* begin = p_;
    run_to_stop();
    if (p_ == end_ || *p_ != '"') return false;
    s = std::string_view(begin, static_cast<std::size_t>(p_ - begin));
    ++p_;
    return true;
  }
  // An object key without escapes, and its colon.
  bool key(std::string_view& k) { return plain_string(k) && eat(':'); }

  // A string value, unescaped into *out (appended) unless out is null.
  bool string(std::string* out) {
    if (!eat('"')) return false;
    for (;;) {
      const char* begin = p_;
      run_to_stop();
      if (out) out->append(begin, static_cast<std::size_t>(p_ - begin));
      if (p_ == end_) return false;
      const char c = *p_++;
      if (c == '"') return true;
      // A control character, UTF-8 (left to simdjson, which validates it) or a bad escape.
      if (c != '\\' || !escape(out)) return false;
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

  // A plain integer (-?(0|[1-9][0-9]*), no fraction, no exponent, at most kMaxNumberChars
  // characters): what simdjson reads as an int64. Its value is made in the same pass as the
  // grammar's check (a check and then from_chars read every count twice); the length is checked
  // before each digit, so the value cannot overflow.
  bool integer(std::int64_t& v) {
    skip_ws();
    const char* begin = p_;
    const bool negative = p_ != end_ && *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !digit(*p_)) return false;
    std::int64_t n = 0;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && digit(*p_)) {
        if (static_cast<std::size_t>(p_ - begin) == kMaxNumberChars) return false;
        n = n * 10 + (*p_++ - '0');
      }
    }
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || digit(*p_))) return false;
    v = negative ? -n : n;
    return true;
  }

  // An object, member by member: on_member(key) must take the member's value. False when the
  // object, or any member as on_member reads it, is not one the fast path understands.
  template <typename OnMember>
  bool members(OnMember&& on_member) {
    if (!eat('{')) return false;
    if (eat('}')) return true;
    do {
      std::string_view k;
      if (!key(k) || !on_member(k)) return false;
    } while (eat(','));
    return eat('}');
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
  // Moves to the first byte that ends a plain run of string text, or to the end.
  void run_to_stop() { p_ = core::json_plain_run_end(p_, end_); }

  void skip_ws() {
    if (p_ != end_ && static_cast<unsigned char>(*p_) > ' ') return;  // compact JSON: no spaces
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
    return members([&](std::string_view) { return skip_value(depth + 1); });
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

// Where choices[0]'s text string (delta.content, message.content or text) stood in the payload:
// its opening quote and one past its closing quote; null when it was not a string.
struct TextSpan {
  const char* begin = nullptr;
  const char* end = nullptr;
};

// The text as a string, with where it stood; anything else skipped as string_or_skip does.
bool text_or_skip(ChunkCursor& c, std::string* out, int depth, TextSpan& span) {
  if (!c.next_is('"')) return c.skip_value(depth);
  const char* begin = c.pos();
  if (!c.string(out)) return false;
  span = TextSpan{begin, c.pos()};
  return true;
}

// choices[0].delta (or a whole response's message): content and the reasoning text
// (reasoning_content, else reasoning). An empty tool-call list (vLLM writes one) is no call.
bool scan_message(ChunkCursor& c, DecodedEvent& out, TextSpan& span) {
  std::string reasoning_content, reasoning;
  bool seen_content = false, seen_rc = false, seen_r = false, seen_tools = false;
  const bool ok = c.members([&](std::string_view k) {
    if (is(k, "content")) return first_time(seen_content) && text_or_skip(c, &out.content, 3, span);
    if (is(k, "reasoning_content"))
      return first_time(seen_rc) && c.string_or_skip(&reasoning_content, 3);
    if (is(k, "reasoning")) return first_time(seen_r) && c.string_or_skip(&reasoning, 3);
    // Tool calls go to the full decoder.
    if (is(k, "tool_calls"))
      return first_time(seen_tools) && (c.literal("null") || (c.eat('[') && c.eat(']')));
    return c.skip_value(3);
  });
  if (!ok) return false;
  out.reasoning = !reasoning_content.empty() ? std::move(reasoning_content) : std::move(reasoning);
  return true;
}

// The member of choices[0] that holds the text: a chunk's delta, a whole response's message, a
// completion's text (decode_chat_document picks delta or message by "object").
enum class TextField { kDelta, kMessage, kText };

bool scan_first_choice(ChunkCursor& c, TextField field, DecodedEvent& out, TextSpan& span) {
  bool seen_finish = false, seen_text = false;
  const std::string_view message = field == TextField::kDelta ? "delta" : "message";
  return c.members([&](std::string_view k) {
    if (is(k, "finish_reason"))
      return first_time(seen_finish) && c.string_or_skip(&out.finish_reason, 2);
    if (field != TextField::kText && k == message)
      return first_time(seen_text) && c.next_is('{') && scan_message(c, out, span);
    if (field == TextField::kText && is(k, "text"))
      return first_time(seen_text) && text_or_skip(c, &out.content, 2, span);
    return c.skip_value(2);
  });
}

bool scan_choices(ChunkCursor& c, TextField field, DecodedEvent& out, TextSpan& span) {
  if (!c.eat('[')) return false;
  if (c.eat(']')) return true;
  if (!c.next_is('{') || !scan_first_choice(c, field, out, span)) return false;
  while (c.eat(',')) {
    if (!c.skip_value(1)) return false;
  }
  return c.eat(']');
}

// The text's member for an "object" value of the shape; nullopt when the full decoder would call
// the response unexpected.
std::optional<TextField> text_field_of(std::string_view object, ChunkShape shape) {
  if (shape == ChunkShape::kChat) {
    if (is(object, "chat.completion.chunk")) return TextField::kDelta;
    if (is(object, "chat.completion")) return TextField::kMessage;
    return std::nullopt;
  }
  if (is(object, "text_completion") || is(object, "completion")) return TextField::kText;
  return std::nullopt;
}

// One count of a usage object, the first of its name: an integer, or null for none (as
// read_usage_object reads it).
bool usage_count(ChunkCursor& c, bool& seen, std::optional<std::int64_t>& slot) {
  if (!first_time(seen)) return false;
  if (c.literal("null")) return true;
  std::int64_t v = 0;
  if (!c.integer(v)) return false;
  slot = v;
  return true;
}

// prompt_tokens_details (cached and audio tokens) or completion_tokens_details (reasoning,
// audio, accepted and rejected prediction tokens): null, or an object whose other members are not
// read.
bool scan_usage_details(ChunkCursor& c, bool& seen, Usage& usage, bool prompt) {
  if (!first_time(seen)) return false;
  if (c.literal("null")) return true;
  bool seen_cached = false, seen_audio = false, seen_reasoning = false, seen_accepted = false,
       seen_rejected = false;
  return c.members([&](std::string_view k) {
    if (is(k, "audio_tokens"))
      return usage_count(c, seen_audio,
                         prompt ? usage.prompt_audio_tokens : usage.completion_audio_tokens);
    if (prompt && is(k, "cached_tokens"))
      return usage_count(c, seen_cached, usage.prompt_cache_read_tokens);
    if (!prompt && is(k, "reasoning_tokens"))
      return usage_count(c, seen_reasoning, usage.reasoning_tokens);
    if (!prompt && is(k, "accepted_prediction_tokens"))
      return usage_count(c, seen_accepted, usage.accepted_prediction_tokens);
    if (!prompt && is(k, "rejected_prediction_tokens"))
      return usage_count(c, seen_rejected, usage.rejected_prediction_tokens);
    return c.skip_value(3);
  });
}

// usage: null, or OpenAI's counts (prompt, completion, total and their detail objects) as
// plain integers, read as read_usage_object reads them. Any other member (a vendor's name, a
// fraction) goes to the full decoder.
bool scan_usage(ChunkCursor& c, DecodedEvent& out) {
  if (c.literal("null")) return true;
  Usage usage;
  bool seen_prompt = false, seen_completion = false, seen_total = false;
  bool seen_prompt_details = false, seen_completion_details = false;
  const bool ok = c.members([&](std::string_view k) {
    if (is(k, "prompt_tokens")) return usage_count(c, seen_prompt, usage.prompt_tokens);
    if (is(k, "completion_tokens")) return usage_count(c, seen_completion, usage.completion_tokens);
    if (is(k, "total_tokens")) return usage_count(c, seen_total, usage.total_tokens);
    if (is(k, "prompt_tokens_details"))
      return scan_usage_details(c, seen_prompt_details, usage, true);
    if (is(k, "completion_tokens_details"))
      return scan_usage_details(c, seen_completion_details, usage, false);
    return false;
  });
  if (!ok) return false;
  if (usage.any()) out.usage = usage;
  return true;
}

// The top-level keys a plain chunk or response carries and the full decoder does not read (the
// last three are vLLM's, null unless asked for).
bool ignored_top_key(std::string_view k) {
  return is(k, "id") || is(k, "created") || is(k, "model") || is(k, "system_fingerprint") ||
         is(k, "service_tier") || is(k, "prompt_logprobs") || is(k, "prompt_token_ids") ||
         is(k, "kv_transfer_params");
}

bool scan_top(ChunkCursor& c, ChunkShape shape, DecodedEvent& out, TextSpan& span) {
  std::optional<TextField> field;  // from "object", which servers write before "choices"
  bool seen_choices = false, seen_usage = false;
  // A chat response whose choices come before its "object" is read as a chunk; the object then
  // has to be one.
  bool read_as_chunk = false;
  const bool ok = c.members([&](std::string_view k) {
    if (is(k, "object")) {
      std::string_view object;
      if (field || !c.plain_string(object)) return false;
      field = text_field_of(object, shape);
      return field.has_value() && !(read_as_chunk && field != TextField::kDelta);
    }
    if (is(k, "choices")) {
      if (!first_time(seen_choices)) return false;
      if (!field) read_as_chunk = shape == ChunkShape::kChat;
      const TextField f = field                        ? *field
                          : shape == ChunkShape::kChat ? TextField::kDelta
                                                       : TextField::kText;
      return scan_choices(c, f, out, span);
    }
    if (is(k, "usage")) return first_time(seen_usage) && scan_usage(c, out);
    return ignored_top_key(k) && c.skip_value(1);
  });
  return ok && c.at_end() && field.has_value();  // without "object": the full decoder's error
}

}  // namespace

bool scan_chunk(std::string_view payload, ChunkShape shape, DecodedEvent& out) {
  ChunkCursor c(payload);
  TextSpan span;
  if (!scan_top(c, shape, out, span)) return false;
  out.kind = DecodedEvent::Kind::kData;
  return true;
}

bool ChunkMemo::scan(std::string_view payload, ChunkShape shape, DecodedEvent& out) {
  const std::size_t frame = before_.size() + after_.size();
  if (valid_ && shape == shape_ && payload.size() >= frame + 2 &&
      std::memcmp(payload.data(), before_.data(), before_.size()) == 0 &&
      std::memcmp(payload.data() + payload.size() - after_.size(), after_.data(), after_.size()) ==
          0) {
    // The same bytes as the remembered chunk but for the text: the scan would read the same
    // finish reason and reasoning, and the text from this string if it is exactly one.
    ChunkCursor c(payload.substr(before_.size(), payload.size() - frame));
    if (c.string(&out.content) && c.at_end_exactly()) {
      // `out` is fresh: most chunks have neither, and copying an empty string is not free.
      if (!finish_reason_.empty()) out.finish_reason = finish_reason_;
      if (!reasoning_.empty()) out.reasoning = reasoning_;
      out.kind = DecodedEvent::Kind::kData;
      ++frame_hits_;
      return true;
    }
    out.content.clear();
  }
  ChunkCursor c(payload);
  TextSpan span;
  valid_ = false;
  if (!scan_top(c, shape, out, span)) return false;
  out.kind = DecodedEvent::Kind::kData;
  // A chunk with usage is not remembered: the counts change from chunk to chunk where a server
  // sends them with every chunk (vLLM's continuous usage), so such a frame would never be met
  // again.
  if (span.begin != nullptr && !out.usage) {
    valid_ = true;
    shape_ = shape;
    before_.assign(payload.data(), span.begin);
    after_.assign(span.end, payload.data() + payload.size());
    finish_reason_ = out.finish_reason;
    reasoning_ = out.reasoning;
  }
  return true;
}

}  // namespace inferperf::endpoint
