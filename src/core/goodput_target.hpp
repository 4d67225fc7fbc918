// The --goodput syntax: "tag:value tag:value", each value a threshold in the metric's display
// unit. Parsed once by config; the metrics module resolves each tag against its catalogue.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace inferperf::core {

struct GoodputTarget {
  std::string tag;
  double value = 0;  // display units (ms, tokens, tokens/s, ...)
};

// Parses the objectives in the order given. Errors name the offending item: not tag:value, not a
// number, negative, a tag given twice, or no objective at all. Tags are not checked here.
std::optional<std::string> parse_goodput_targets(const std::string& spec,
                                                 std::vector<GoodputTarget>& out);

}  // namespace inferperf::core
