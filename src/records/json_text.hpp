// JSON values written straight into a string, byte for byte as nlohmann's
// dump(-1, ' ', false, error_handler_t::replace) writes them, for the per-record files (the records
// file, profile_export.jsonl) that write one line per request: building an nlohmann document per
// line cost most of the time those files took (docs/decisions.md).
#pragma once
#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace inferperf::records {

// A JSON string; invalid UTF-8 is replaced as nlohmann replaces it.
void put_json_string(std::string_view s, std::string& out);
// Whether put_json_string writes `s` unchanged between its quotes (printable ASCII without `"`
// or `\`): such text may be copied into a line as it is.
bool is_plain_json_text(std::string_view s);
void put_json_int(std::int64_t v, std::string& out);
// The most bytes format_json_int writes: "-9223372036854775808".
inline constexpr std::size_t kJsonIntMaxBytes = 20;
// `v`'s decimal digits, '-' first when negative, into `buf` (kJsonIntMaxBytes at least); returns
// how many were written.
std::size_t format_json_int(std::int64_t v, char* buf);
// nlohmann's form of a double: its shortest round-trip digits (Grisu2), always with a fraction or
// an exponent ("32.0", "0.25", "1e-05"); null when not finite.
void put_json_double(double v, std::string& out);
// A `"k":` prefix, with the comma before it unless it is the object's first key (`first` tracks
// that). `k` is plain ASCII with nothing to escape (the callers' keys are constants and metric
// tags).
void put_json_key(std::string_view k, bool& first, std::string& out);

// One JSON object written into `out`: opened by the constructor, closed by close(), its members
// added in order. Integer, boolean and plain string members are assembled in the object's own
// stage and reach `out` in one append when the stage fills, at member() and at close(): a
// record line has some thirty members, and two copies and an append per member were most of the
// records writer's instructions per request (docs/decisions.md). So `out` must not be written to
// while the object is open except through the string member() returns, and a nested object on
// it must be closed before this one's next member.
class JsonObjectText {
 public:
  explicit JsonObjectText(std::string& out) : out_(out) { stage_[used_++] = '{'; }
  JsonObjectText(const JsonObjectText&) = delete;
  JsonObjectText& operator=(const JsonObjectText&) = delete;

  // Inlined into the writers' calls so that a constant key is copied by a few moves, not memcpy.
  [[gnu::always_inline]] void integer(std::string_view k, std::int64_t v) {
    char* p = room(k.size() + kJsonIntMaxBytes + 4);
    if (p == nullptr) {
      put_json_int(v, member(k));
      return;
    }
    p = put_key(k, p);
    used_ = end_of(p + format_json_int(v, p));
  }
  void number(std::string_view k, double v) { put_json_double(v, member(k)); }
  // A string with nothing to escape is staged with its key; any other goes to put_json_string.
  void string(std::string_view k, std::string_view v);
  [[gnu::always_inline]] void boolean(std::string_view k, bool v) {
    const std::string_view text = v ? std::string_view("true") : std::string_view("false");
    char* p = room(k.size() + text.size() + 4);
    if (p == nullptr) {
      member(k).append(text);
      return;
    }
    p = put_key(k, p);
    std::memcpy(p, text.data(), text.size());
    used_ = end_of(p + text.size());
  }
  // The key's prefix, everything staged before it written out first; the caller appends the
  // value to the string returned.
  std::string& member(std::string_view k) {
    flush();
    put_json_key(k, first_, out_);
    if constexpr (kChecked) direct_ = true;
    return out_;
  }
  bool empty() const { return first_; }
  void close() {
    if (used_ == kStage) flush();
    stage_[used_++] = '}';
    flush();
  }

 private:
  static constexpr std::size_t kStage = 512;
#ifdef NDEBUG
  static constexpr bool kChecked = false;
#else
  static constexpr bool kChecked = true;  // the rule's bookkeeping, for flush()'s assertion
#endif

  // Where `n` more bytes may be staged (written out first when they do not fit after what is
  // there), or nullptr when they are more than the stage holds.
  [[gnu::always_inline]] char* room(std::size_t n) {
    if (n > kStage - used_) {
      flush();
      if (n > kStage) return nullptr;
    }
    return stage_.data() + used_;
  }
  // `,"k":` (no comma before the first member) at `p`; returns the end. `k` needs no escaping.
  [[gnu::always_inline]] char* put_key(std::string_view k, char* p) {
    if (!first_) *p++ = ',';
    first_ = false;
    *p++ = '"';
    if (!k.empty()) std::memcpy(p, k.data(), k.size());  // an empty view may hold no pointer
    p += k.size();
    *p++ = '"';
    *p++ = ':';
    return p;
  }
  // The stage's new fill: `p` is where the member written at room()'s pointer ends (the debug and
  // sanitizer builds check that the member stayed within the stage).
  std::size_t end_of(const char* p) const {
    assert(p <= stage_.data() + kStage);
    return static_cast<std::size_t>(p - stage_.data());
  }
  void flush() {
    // The rule above, checked in the debug and sanitizer builds: since the last flush, `out` grew
    // only through member()'s string.
    assert(direct_ || out_.size() == flushed_size_);
    out_.append(stage_.data(), used_);
    used_ = 0;
    if constexpr (kChecked) {
      flushed_size_ = out_.size();
      direct_ = false;
    }
  }

  std::string& out_;
  std::array<char, kStage> stage_;
  std::size_t used_ = 0;
  std::size_t flushed_size_ = out_.size();  // `out`'s size after the last flush
  bool direct_ = false;                     // member() handed `out` to the caller since then
  bool first_ = true;
};

}  // namespace inferperf::records
