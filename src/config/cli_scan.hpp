// Checks on the raw argument list before CLI11 reads it: unknown options get a "did you mean",
// numeric values are checked against their range (numeric_ranges.hpp) and rewritten in a form
// CLI11 converts exactly (no octal "010", no saturation beyond 2^63).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "config/cli_app.hpp"

namespace inferperf::config {

// Optimal-string-alignment (Damerau-Levenshtein) distance: insertions, deletions, substitutions
// and swaps of two neighbours each cost 1. Stops counting at `cap` + 1 (names are short).
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap = 3);

// The name in `names` closest to `typed` when it is near enough to be a typo (distance at most
// 2, at most 1 for names of 4 characters or fewer); "" otherwise.
std::string closest_name(std::string_view typed, const std::vector<std::string>& names);

// Every problem found in `args` (the whole command line, subcommand first): unknown options of
// profile/analyze/analyze-trace, an unknown subcommand, and numeric values outside their range.
// Accepted numeric values are rewritten in place.
std::vector<std::string> scan_arguments(const CliApp& cli, std::vector<std::string>& args);

}  // namespace inferperf::config
