// JSON values written straight into a string, byte for byte as nlohmann's
// dump(-1, ' ', false, error_handler_t::replace) writes them, for the per-record files (the records
// file, profile_export.jsonl) that write one line per request: building an nlohmann document per
// line cost most of the time those files took (docs/decisions.md).
#pragma once
#include <cstdint>
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
// added in order.
class JsonObjectText {
 public:
  explicit JsonObjectText(std::string& out) : out_(out) { out_.push_back('{'); }
  // `,"k":v` assembled and appended at once (a record line has some twenty-five of them).
  void integer(std::string_view k, std::int64_t v);
  void number(std::string_view k, double v) { put_json_double(v, member(k)); }
  // A string with nothing to escape that fits the stack is appended with its key at once.
  void string(std::string_view k, std::string_view v);
  void boolean(std::string_view k, bool v) {
    member(k).append(v ? std::string_view("true") : std::string_view("false"));
  }
  // The key's prefix; the caller appends the value to the string returned.
  std::string& member(std::string_view k) {
    put_json_key(k, first_, out_);
    return out_;
  }
  bool empty() const { return first_; }
  void close() { out_.push_back('}'); }

 private:
  std::string& out_;
  bool first_ = true;
};

}  // namespace inferperf::records
