#include "core/goodput_target.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

namespace inferperf::core {

std::optional<std::string> parse_goodput_targets(const std::string& spec,
                                                 std::vector<GoodputTarget>& out) {
  std::istringstream in(spec);
  std::string item;
  bool any = false;
  while (in >> item) {
    any = true;
    const auto colon = item.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == item.size()) {
      return "--goodput item '" + item +
             "' is not tag:value (a metric tag, ':', a threshold; objectives are separated by "
             "spaces)";
    }
    const std::string tag = item.substr(0, colon);
    const std::string value = item.substr(colon + 1);
    double v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(v)) {
      return "--goodput: '" + value + "' is not a number (in " + item + ")" +
             (value.find_first_of(",;:=") != std::string::npos ? "; separate objectives with spaces"
                                                               : "");
    }
    if (v < 0)
      return "--goodput: the threshold of " + tag + " must not be negative (got " + value + ")";
    // The catalogue has one metric per tag, so the same tag twice is the same metric twice.
    for (const auto& o : out) {
      if (o.tag == tag) return "--goodput: " + tag + " is given twice";
    }
    out.push_back({tag, v});
  }
  if (!any) return std::string("--goodput needs at least one tag:value objective");
  return std::nullopt;
}

}  // namespace inferperf::core
