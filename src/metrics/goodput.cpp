#include <charconv>
#include <cmath>
#include <sstream>

#include "metrics/compute.hpp"

namespace inferperf::metrics {

std::optional<std::string> parse_goodput(const std::string& spec,
                                         std::vector<GoodputObjective>& out) {
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
    const MetricInfo* mi = find_metric(tag);
    if (!mi) return "--goodput: unknown metric '" + tag + "'";
    if (mi->kind != MetricKind::kRecord || mi->visibility == Visibility::kExperimental ||
        tag == "inter_chunk_latency" || tag == "per_token_itl" || tag == "vllm_itl" ||
        tag == "error_isl") {
      return "--goodput: '" + tag +
             "' is not a per-request metric (derived, aggregate and list metrics cannot be "
             "objectives)";
    }
    double v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(v)) {
      return "--goodput: '" + value + "' is not a number (in " + item + ")" +
             (value.find_first_of(",;:=") != std::string::npos ? "; separate objectives with spaces"
                                                               : "");
    }
    if (v < 0)
      return "--goodput: the threshold of " + tag + " must not be negative (got " + value + ")";
    for (const auto& o : out) {
      if (o.metric == mi) return "--goodput: " + tag + " is given twice";
    }
    out.push_back({mi, v * mi->scale});
  }
  if (!any) return std::string("--goodput needs at least one tag:value objective");
  return std::nullopt;
}

}  // namespace inferperf::metrics
