#include "timing/adaptive_scale.hpp"

#include <algorithm>
#include <cmath>

namespace inferperf::timing {

namespace {

constexpr double kNsPerS = 1e9;

std::optional<double> latency_stat(const core::Stats& s, const std::string& stat) {
  if (s.count == 0) return std::nullopt;
  if (stat == "avg") return s.avg;
  if (stat == "min") return s.min;
  if (stat == "max") return s.max;
  return s.percentile(std::stoi(stat.substr(1)));
}

// How far `value` is inside the filter, relative to the threshold (negative: outside).
double headroom_of(const core::SlaFilter& f, double value) {
  const double scale = std::max(std::fabs(f.threshold), 1e-9);
  const bool below = f.op == "lt" || f.op == "le";
  return (below ? f.threshold - value : value - f.threshold) / scale;
}

AdaptiveEvent make_event(const char* type, double t, int concurrency, const char* stage,
                         std::string reason = "", std::optional<int> next = std::nullopt) {
  AdaptiveEvent e;
  e.type = type;
  e.t_s = t;
  e.concurrency = concurrency;
  e.stage = stage;
  e.reason = std::move(reason);
  e.next_concurrency = next;
  return e;
}

}  // namespace

AdaptiveScale::AdaptiveScale(AdaptiveScaleSettings settings, core::MonoNs start_ns)
    : settings_(std::move(settings)),
      start_ns_(start_ns),
      window_start_ns_(start_ns),
      limit_(std::clamp(settings_.min_concurrency, 1, std::max(1, settings_.ceiling))) {
  limits_.push_back(limit_);
}

void AdaptiveScale::add(const Completion& c) {
  if (stage_ == Stage::kDone || c.start_ns < window_start_ns_) return;
  window_.push_back(c);
}

double AdaptiveScale::since_start(core::MonoNs t) const {
  return static_cast<double>(t - start_ns_) / kNsPerS;
}

std::optional<double> AdaptiveScale::sustain_started_s() const {
  if (!sustain_start_ns_) return std::nullopt;
  return since_start(*sustain_start_ns_);
}

void AdaptiveScale::set_limit(int n) {
  limit_ = n;
  limits_.push_back(n);
}

int AdaptiveScale::step(const std::string& policy, int limit, double headroom) {
  if (policy == "fixed_percent_step")
    return std::max(1, static_cast<int>(std::lround(0.25 * limit)));
  return std::clamp(static_cast<int>(std::lround(40.0 * headroom)), 1, 40);
}

WindowStats AdaptiveScale::measure(core::MonoNs now) const {
  WindowStats w;
  w.start_s = since_start(window_start_ns_);
  w.end_s = since_start(now);
  std::vector<double> latencies;
  for (const auto& c : window_) {
    if (c.end_ns > now) continue;
    ++w.returned;
    if (!c.ok) continue;
    ++w.succeeded;
    latencies.push_back(c.latency_ms);
  }
  w.latency = core::compute_stats(std::move(latencies));
  const double seconds = w.end_s - w.start_s;
  w.request_throughput = seconds > 0 ? static_cast<double>(w.succeeded) / seconds : 0;
  w.goodput_ratio =
      w.returned > 0 ? static_cast<double>(w.succeeded) / static_cast<double>(w.returned) : 0;
  return w;
}

std::vector<SlaVerdict> AdaptiveScale::judge(const WindowStats& w, double& headroom) const {
  std::vector<SlaVerdict> out;
  headroom = 1.0;
  bool sized = false;  // a filter that sizes the step was seen
  for (const auto& f : settings_.sla) {
    SlaVerdict v;
    v.filter = f.text;
    if (f.tag == "request_latency")
      v.value = latency_stat(w.latency, f.stat);
    else if (f.tag == "request_throughput")
      v.value = w.request_throughput;
    else if (f.tag == "goodput_ratio")
      v.value = w.goodput_ratio;
    v.passed = v.value && core::sla_holds(f, *v.value);
    // goodput_ratio sits near 1 with a threshold near 1: its headroom is always a few percent
    // and would hold every step at 1; the latency and throughput filters size the step.
    if (f.tag != "goodput_ratio") {
      headroom = std::min(headroom, v.value ? headroom_of(f, *v.value) : -1.0);
      sized = true;
    }
    out.push_back(std::move(v));
  }
  if (!sized) headroom = 0.25;  // the base step
  return out;
}

std::vector<AdaptiveEvent> AdaptiveScale::tick(core::MonoNs now) {
  std::vector<AdaptiveEvent> events;
  if (stage_ == Stage::kDone) return events;
  const double t = since_start(now);
  const bool sustain_over =
      stage_ == Stage::kSustain &&
      now >= *sustain_start_ns_ + static_cast<core::MonoNs>(settings_.sustain_s * kNsPerS);
  const auto window_end =
      window_start_ns_ + static_cast<core::MonoNs>(settings_.assessment_s * kNsPerS);
  const WindowStats w = now >= window_end ? measure(now) : WindowStats{};
  // A window is judged when its time is up and it holds enough completions (else it goes on);
  // the sustain's last window is judged before the sustain ends.
  if (now < window_end || w.returned < settings_.min_completed) {
    if (sustain_over) events.push_back(finish(now, "sustain_complete"));
    return events;
  }
  double headroom = 0;
  AdaptiveEvent win;
  win.type = "window";
  win.t_s = t;
  win.concurrency = limit_;
  win.sla = judge(w, headroom);
  win.passed =
      std::all_of(win.sla.begin(), win.sla.end(), [](const SlaVerdict& v) { return v.passed; });
  win.window = w;
  win.stage = stage_ == Stage::kRamp ? "ramp" : "sustain";
  const bool passed = *win.passed;
  events.push_back(win);
  ++windows_;
  window_.clear();
  window_start_ns_ = now;
  last_window_ = w;
  if (stage_ == Stage::kSustain) {
    ++sustain_windows_;
    if (passed) ++sustain_windows_passed_;
    if (sustain_over) events.push_back(finish(now, "sustain_complete"));
    return events;
  }
  if (passed) {
    good_ = std::max(good_.value_or(limit_), limit_);
  } else {
    bad_ = std::min(bad_.value_or(limit_), limit_);
  }
  int next = limit_;
  std::string reason;
  if (!bad_) {
    if (limit_ >= settings_.ceiling) {
      enter_sustain(limit_, "ceiling", t, events);
      return events;
    }
    next = std::min(settings_.ceiling, limit_ + step(settings_.step_policy, limit_, headroom));
    reason = "raise";
  } else if (!good_) {
    enter_sustain(settings_.min_concurrency, "none_feasible", t, events);
    return events;
  } else if (*good_ >= *bad_) {
    // A level failed below one that passed (noise near the boundary): the levels below the
    // failure are taken, unverified.
    enter_sustain(std::max(settings_.min_concurrency, *bad_ - 1), "first_failure", t, events);
    return events;
  } else if (*bad_ - *good_ <= 1) {
    enter_sustain(*good_, "first_failure", t, events);
    return events;
  } else {
    next = *good_ + (*bad_ - *good_) / 2;  // refine between the pass and the failure
    reason = "refine";
  }
  events.push_back(make_event("decision", t, limit_, "ramp", reason, next));
  move_to(next, now, w);
  return events;
}

void AdaptiveScale::move_to(int next, core::MonoNs now, const WindowStats& last) {
  // Lower: the sessions above the new limit are still running; the next window starts once they
  // can have finished (the slowest request of the window just judged), so none overlaps it.
  if (next < limit_ && last.latency.count > 0)
    window_start_ns_ = now + static_cast<core::MonoNs>(last.latency.max * 1e6);
  if (next != limit_) set_limit(next);
}

void AdaptiveScale::enter_sustain(int at, const std::string& reason, double t,
                                  std::vector<AdaptiveEvent>& events) {
  boundary_ = at;
  boundary_reason_ = reason;
  events.push_back(make_event("boundary", t, limit_, "ramp", reason, at));
  const core::MonoNs now = start_ns_ + static_cast<core::MonoNs>(t * kNsPerS);
  move_to(at, now, last_window_);
  stage_ = Stage::kSustain;
  sustain_start_ns_ = window_start_ns_;
  events.push_back(make_event("sustain", since_start(window_start_ns_), limit_, "sustain"));
}

AdaptiveEvent AdaptiveScale::finish(core::MonoNs now, const std::string& reason) {
  const char* stage = stage_ == Stage::kSustain ? "sustain"
                      : stage_ == Stage::kRamp  ? "ramp"
                                                : "done";
  stage_ = Stage::kDone;
  return make_event("terminal", since_start(now), limit_, stage, reason);
}

}  // namespace inferperf::timing
