// What reading the profile words for sweeps and searches shares (sweep_args.cpp and
// search_args.cpp): the twelve sweepable options, number parsing, and one "--flag[=value]" word
// with its value checks.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "config/numeric_ranges.hpp"

namespace inferperf::sweep::detail {

// The twelve AIPerf 0.11 magic-list options: every spelling inferperf accepts for each, the
// config path AIPerf 0.11 maps the list to (§ sweeps in docs/sweeps.md), and whether its items
// are whole numbers (else floats).
struct Sweepable {
  const char* name;
  std::vector<std::string> flags;
  bool integer;
  const char* path;
  bool zero_ok = false;  // a standard deviation may be 0
};

const std::vector<Sweepable>& sweepables();
const Sweepable* sweepable_for(const std::string& flag);
// One value of a sweepable option as every child gets it ("04" -> "4", a float option's "5" ->
// "5.0"); nullopt when it is not a number in the option's range (above 0, or 0 for a stddev).
std::optional<std::string> canonical_sweep_value(const Sweepable& s, const std::string& item);
// `base` without every word of the flags in `flags` ("--flag v", "--flag v1 v2", "--flag=v"): a
// scenario or a recipe that sets a flag replaces the value the command line gave it. Returns the
// value words of the last occurrence (none for a bare switch), or nullopt when there was none.
std::optional<std::vector<std::string>> drop_flag_words(std::vector<std::string>& base,
                                                        const std::vector<std::string>& flags);
// "1, 2,4" -> {"1", "2", "4"}: items trimmed, as AIPerf 0.11 reads them.
std::vector<std::string> split_commas(const std::string& v);
std::optional<double> parse_number(const std::string& s);
std::optional<long long> parse_integer(const std::string& s);
std::optional<bool> parse_bool(const std::string& s);

// One "--flag" or "--flag=value" word of the profile command line, read at args[at]; taking its
// value moves `at` past the words taken. Each bad value adds one line to `errors`.
struct SweepFlagWord {
  const std::vector<std::string>& args;
  std::size_t& at;
  std::vector<std::string>& errors;
  std::string flag;
  std::optional<std::string> inline_value;  // what follows '=' in the word

  // The value of a flag that takes one; nullopt (and an error) when it is missing.
  std::optional<std::string> value() {
    if (inline_value) return inline_value;
    if (at + 1 < args.size()) return args[++at];
    errors.push_back(flag + " needs a value");
    return std::nullopt;
  }

  // A switch with an optional "=true|false" (or a following true/false word).
  void take_switch(bool& target, bool value_if_bare) {
    if (inline_value) {
      auto b = parse_bool(*inline_value);
      if (!b) {
        errors.push_back(flag + ": '" + *inline_value + "' is not true or false");
        return;
      }
      target = value_if_bare ? *b : !*b;
      return;
    }
    if (at + 1 < args.size()) {
      if (auto b = parse_bool(args[at + 1])) {
        ++at;
        target = value_if_bare ? *b : !*b;
        return;
      }
    }
    target = value_if_bare;
  }

  // The value checked against the flag's range in the one table every numeric flag has
  // (config/numeric_ranges, docs/limits.md); nullopt (and its message) outside it.
  // `range_of`: the flag whose range applies (an alias's canonical flag); the message names the
  // flag as typed.
  std::optional<double> number(const char* range_of = nullptr) {
    auto v = value();
    if (!v) return std::nullopt;
    const config::NumericRange* range =
        config::find_numeric_range(range_of ? std::string(range_of) : flag);
    if (!range) {  // every orchestration flag is in the table (NumericRanges tests)
      errors.push_back(flag + " has no range");
      return std::nullopt;
    }
    const auto check = config::check_numeric_value(*range, flag, *v);
    if (!check.canonical) {
      errors.push_back(check.error);
      return std::nullopt;
    }
    return std::strtod(check.canonical->c_str(), nullptr);
  }

  void take_seconds(double& target) {
    if (auto d = number()) target = *d;
  }
};

SweepFlagWord read_sweep_flag_word(const std::vector<std::string>& args, std::size_t& at,
                                   std::vector<std::string>& errors);

}  // namespace inferperf::sweep::detail
