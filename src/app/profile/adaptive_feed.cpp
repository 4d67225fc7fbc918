#include "app/profile/adaptive_feed.hpp"

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "report/exporters.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

nlohmann::ordered_json or_null(std::optional<double> v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json window_json(const timing::WindowStats& w) {
  nlohmann::ordered_json j;
  j["start_s"] = w.start_s;
  j["end_s"] = w.end_s;
  j["returned"] = w.returned;
  j["succeeded"] = w.succeeded;
  const auto& l = w.latency;
  j["request_latency"] = l.count == 0 ? nlohmann::ordered_json(nullptr)
                                      : nlohmann::ordered_json{{"avg", l.avg},
                                                               {"min", l.min},
                                                               {"max", l.max},
                                                               {"p50", l.percentile(50)},
                                                               {"p90", l.percentile(90)},
                                                               {"p99", l.percentile(99)},
                                                               {"unit", "ms"}};
  j["request_throughput"] = w.request_throughput;
  j["goodput_ratio"] = w.goodput_ratio;
  return j;
}

nlohmann::ordered_json event_json(const timing::AdaptiveEvent& e) {
  nlohmann::ordered_json j;
  j["type"] = e.type;
  j["t_s"] = e.t_s;
  j["stage"] = e.stage;
  j["concurrency"] = e.concurrency;
  if (e.window) j["window"] = window_json(*e.window);
  if (!e.sla.empty()) {
    nlohmann::ordered_json sla = nlohmann::ordered_json::array();
    for (const auto& v : e.sla)
      sla.push_back({{"filter", v.filter}, {"value", or_null(v.value)}, {"passed", v.passed}});
    j["sla"] = std::move(sla);
  }
  if (e.passed) j["passed"] = *e.passed;
  if (e.next_concurrency) j["next_concurrency"] = *e.next_concurrency;
  if (!e.reason.empty()) j["reason"] = e.reason;
  return j;
}

// The profiling phase's request_latency: start to the last content response (else the end).
timing::Completion completion_of(const records::RequestRecord& r) {
  timing::Completion c;
  c.start_ns = r.start_ns;
  c.end_ns = r.end_ns;
  const core::MonoNs last = r.content_events.empty() ? r.end_ns : r.content_events.back().ts_ns;
  c.latency_ms = static_cast<double>(last - r.start_ns) / 1e6;
  c.ok = !r.error && !r.was_cancelled;
  return c;
}

}  // namespace

AdaptiveFeed::AdaptiveFeed(timing::AdaptiveScaleSettings settings, fs::path folder)
    : settings_(std::move(settings)), folder_(std::move(folder)) {}

void AdaptiveFeed::on_record(const records::RequestRecord& r) {
  if (r.phase != records::Phase::kProfiling) return;
  std::lock_guard lock(mu_);
  if (scale_) scale_->add(completion_of(r));
}

int AdaptiveFeed::start(core::MonoNs start_ns) {
  std::lock_guard lock(mu_);
  scale_.emplace(settings_, start_ns);
  events_.open(folder_ / kAdaptiveEventsFileName, std::ios::trunc);
  if (!events_)
    spdlog::warn("cannot write {}; adaptive scale goes on without it",
                 (folder_ / kAdaptiveEventsFileName).string());
  spdlog::info(
      "adaptive scale: concurrency from {} up to {}, windows of {:.1f} s, then {:.1f} s "
      "at the boundary",
      scale_->limit(), settings_.ceiling, settings_.assessment_s, settings_.sustain_s);
  return scale_->limit();
}

void AdaptiveFeed::write_event(const timing::AdaptiveEvent& e) {
  if (events_) events_ << event_json(e).dump() << "\n" << std::flush;
  if (e.type == "decision")
    spdlog::info("adaptive scale: window passed at concurrency {}; raising it to {}", e.concurrency,
                 *e.next_concurrency);
  else if (e.type == "boundary")
    spdlog::info("adaptive scale: boundary at concurrency {} ({})", *e.next_concurrency, e.reason);
}

AdaptiveFeed::Tick AdaptiveFeed::tick(core::MonoNs now) {
  std::lock_guard lock(mu_);
  Tick t;
  if (!scale_ || scale_->done()) return t;
  const int before = scale_->limit();
  for (const auto& e : scale_->tick(now)) {
    write_event(e);
    if (e.type == "terminal") {
      terminal_reason_ = e.reason;
      terminal_t_s_ = e.t_s;
    }
  }
  if (scale_->limit() != before) t.new_limit = scale_->limit();
  t.done = scale_->done();
  return t;
}

std::string AdaptiveFeed::finish(core::MonoNs now, const std::string& reason) {
  std::lock_guard lock(mu_);
  if (!scale_) return "";
  if (!scale_->done()) {
    const auto e = scale_->finish(now, reason);
    write_event(e);
    terminal_reason_ = e.reason;
    terminal_t_s_ = e.t_s;
  }
  events_.close();
  const auto& s = *scale_;
  nlohmann::ordered_json j;
  j["boundary_concurrency"] =
      s.boundary() ? nlohmann::ordered_json(*s.boundary()) : nlohmann::ordered_json(nullptr);
  j["boundary_reason"] =
      s.boundary() ? nlohmann::ordered_json(s.boundary_reason()) : nlohmann::ordered_json(nullptr);
  j["min_concurrency"] = settings_.min_concurrency;
  j["ceiling"] = settings_.ceiling;
  j["step_policy"] = settings_.step_policy;
  j["assessment_period_s"] = settings_.assessment_s;
  j["sustain_duration_s"] = settings_.sustain_s;
  const auto started = s.sustain_started_s();
  j["sustain_started_s"] = or_null(started);
  j["sustained_s"] = started ? nlohmann::ordered_json(std::max(0.0, terminal_t_s_ - *started))
                             : nlohmann::ordered_json(nullptr);
  j["windows"] = s.windows();
  j["sustain_windows"] = s.sustain_windows();
  j["sustain_windows_passed"] = s.sustain_windows_passed();
  j["concurrency_steps"] = s.limits();
  nlohmann::ordered_json sla = nlohmann::ordered_json::array();
  for (const auto& f : settings_.sla) sla.push_back(f.text);
  j["sla"] = std::move(sla);
  j["terminal_reason"] = terminal_reason_;
  const fs::path file = folder_ / kAdaptiveSummaryFileName;
  if (auto w = report::write_atomically(file, j.dump(2) + "\n"); !w) {
    spdlog::error("cannot write {}: {}", file.string(), w.error().message);
    return "";
  }
  if (s.boundary())
    spdlog::info(
        "adaptive scale: boundary concurrency {} ({}), {} of {} sustain window(s) met "
        "the SLA; {}",
        *s.boundary(), s.boundary_reason(), s.sustain_windows_passed(), s.sustain_windows(),
        terminal_reason_);
  else
    spdlog::warn("adaptive scale: no boundary found before the run ended ({})", terminal_reason_);
  return file.string();
}

std::unique_ptr<AdaptiveFeed> make_adaptive_feed(const config::RunConfig& c,
                                                 const fs::path& folder) {
  if (!c.load.adaptive_scale) return nullptr;
  timing::AdaptiveScaleSettings s;
  s.ceiling = c.load.concurrency.value_or(1);
  s.assessment_s = c.load.adaptive_assessment_s.value_or(config::kDefaultAdaptiveAssessmentS);
  s.sustain_s = c.load.adaptive_sustain_s.value_or(0);
  for (const auto& w : c.load.adaptive_scale_sla)
    if (auto f = core::parse_sla_filter(w)) s.sla.push_back(std::move(*f));  // validated
  return std::make_unique<AdaptiveFeed>(std::move(s), folder);
}

}  // namespace inferperf::app
