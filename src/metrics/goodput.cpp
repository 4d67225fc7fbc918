#include "metrics/compute.hpp"

namespace inferperf::metrics {

std::optional<std::string> resolve_goodput(const std::vector<core::GoodputTarget>& targets,
                                           std::vector<GoodputObjective>& out) {
  for (const auto& t : targets) {
    const std::string& tag = t.tag;
    const MetricInfo* mi = find_metric(tag);
    if (!mi) return "--goodput: unknown metric '" + tag + "'";
    if (mi->kind != MetricKind::kRecord || mi->visibility == Visibility::kExperimental ||
        tag == "inter_chunk_latency" || tag == "per_token_itl" || tag == "vllm_itl" ||
        tag == "error_isl") {
      return "--goodput: '" + tag +
             "' is not a per-request metric (derived, aggregate and list metrics cannot be "
             "objectives)";
    }
    out.push_back({mi, t.value * mi->scale});
  }
  return std::nullopt;
}

std::optional<std::string> parse_goodput(const std::string& spec,
                                         std::vector<GoodputObjective>& out) {
  std::vector<core::GoodputTarget> targets;
  if (auto e = core::parse_goodput_targets(spec, targets)) return e;
  return resolve_goodput(targets, out);
}

}  // namespace inferperf::metrics
