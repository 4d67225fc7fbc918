// The accepted range of every numeric command-line option (docs/limits.md gives the reasons), and
// the check that turns a value outside it into one readable message naming the flag.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::config {

enum class NumberKind {
  kWhole,  // an integer; "1e6" and "1000.0" are accepted and rewritten as digits
  kReal,   // a finite decimal number
  kBytes,  // a whole number of bytes with an optional K/M/G/T suffix (core::parse_byte_size)
};

struct NumericRange {
  std::string_view flag;  // the option's first long name, as the parser keys it
  NumberKind kind;
  double min;  // kReal bounds (kWhole and kBytes use whole_min/whole_max)
  double max;
  bool min_exclusive;  // kReal: the value must be above `min`, not equal to it
  std::int64_t whole_min;
  std::int64_t whole_max;
  std::string_view range;  // completes "<flag> must be ...": "a whole number of tokens ..."
  std::string_view why;    // the derivation, one sentence (docs/limits.md)
};

// Every numeric option of `inferperf profile` and `inferperf analyze-trace`, keyed by first long
// name (the unit test checks that this table and the parser's numeric options are the same set).
const std::vector<NumericRange>& numeric_ranges();
// The entry for `flag` (a first long name), or nullptr.
const NumericRange* find_numeric_range(std::string_view flag);

// The value as the parser should read it (digits for whole numbers and byte sizes, the shortest
// round-trip spelling for reals), or the message "<spelled> must be <range> (got <text>)".
struct NumericCheck {
  std::optional<std::string> canonical;
  std::string error;
};
NumericCheck check_numeric_value(const NumericRange& r, std::string_view spelled,
                                 std::string_view text);

// Whether 0 is inside the range (what the range test and docs/limits.md tell per flag).
bool accepts_zero(const NumericRange& r);

}  // namespace inferperf::config
