// --adaptive-scale's checks (AIPerf 0.11 §1.4, §1.6): what it needs, what it cannot run with, and
// which SLA filters a window can judge.
#include <string>
#include <vector>

#include "config/validate.hpp"
#include "core/sla_filter.hpp"

namespace inferperf::config {

namespace {

// request_latency with any stat; request_throughput and goodput_ratio are one value per window.
std::string window_sla_problem(const core::SlaFilter& f) {
  if (f.tag == "request_latency") return "";
  if (f.tag == "request_throughput" || f.tag == "goodput_ratio") {
    if (f.stat == "avg" || f.stat == "min" || f.stat == "max") return "";
    return f.tag + " is one value per window: its stat is avg, min or max, not " + f.stat;
  }
  return "adaptive scale judges request_latency, request_throughput and goodput_ratio, not " +
         f.tag;
}

}  // namespace

void validate_adaptive_scale(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& load = c.load;
  if (!load.adaptive_scale) {
    const char* stray = load.adaptive_sustain_s            ? "--adaptive-sustain-duration"
                        : load.adaptive_assessment_s       ? "--adaptive-assessment-period"
                        : !load.adaptive_scale_sla.empty() ? "--adaptive-scale-sla"
                                                           : nullptr;
    if (stray) errors.push_back(std::string(stray) + " needs --adaptive-scale");
    return;
  }
  if (!load.duration_s || !load.concurrency || !load.adaptive_sustain_s ||
      load.adaptive_scale_sla.empty())
    errors.push_back(
        "--adaptive-scale needs --benchmark-duration (the budget), --concurrency (the ceiling), "
        "--adaptive-sustain-duration and at least one --adaptive-scale-sla filter");
  if (load.request_rate || load.user_centric_rate || load.num_users || load.fixed_schedule)
    errors.push_back(
        "--adaptive-scale moves a concurrency limit: it cannot run with --request-rate, "
        "--user-centric-rate, --num-users or --fixed-schedule");
  if (load.concurrency_ramp_s)
    errors.push_back(
        "--adaptive-scale raises the concurrency itself: leave out --concurrency-ramp-duration");
  if (load.request_count || load.num_sessions)
    errors.push_back(
        "--adaptive-scale runs for --benchmark-duration: leave out --request-count and "
        "--num-sessions, which would end it before the boundary is found");
  if (load.adaptive_sustain_s && !(*load.adaptive_sustain_s > 0))
    errors.push_back("--adaptive-sustain-duration must be above 0 seconds");
  if (load.adaptive_sustain_s && load.duration_s && *load.adaptive_sustain_s >= *load.duration_s)
    errors.push_back(
        "--adaptive-sustain-duration must be shorter than --benchmark-duration, "
        "which also holds the search for the boundary");
  if (load.adaptive_assessment_s && !(*load.adaptive_assessment_s >= 1))
    errors.push_back("--adaptive-assessment-period must be at least 1 second");
  for (const auto& word : load.adaptive_scale_sla) {
    auto f = core::parse_sla_filter(word);
    if (!f) {
      errors.push_back("--adaptive-scale-sla: " + f.error().message);
      continue;
    }
    if (const std::string why = window_sla_problem(*f); !why.empty())
      errors.push_back("--adaptive-scale-sla '" + word + "': " + why);
  }
}

}  // namespace inferperf::config
