// AIPerf 0.11 `profile` options that inferperf refuses by name (exit 2), each with the reason and
// the work that would bring it. Options whose AIPerf 0.11 value can be a no-op (the media shapes)
// are not here: cli_media.cpp takes them and refuses only the values that would make media.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::config {

struct RefusedOption {
  std::string_view flag;    // the long name as typed: "--search-space"
  std::string_view reason;  // completes "option <flag> is refused: <reason>"
};

// Every refused option, one row each.
const std::vector<RefusedOption>& refused_options();

// One "option --x is refused: ..." message per refused option among `args` (a `--flag=value` word
// counts as `--flag`), in the order typed, each option once; and the one refused value the
// command line cannot satisfy, --model-selection-strategy weighted.
std::vector<std::string> refused_option_errors(const std::vector<std::string>& args);

}  // namespace inferperf::config
