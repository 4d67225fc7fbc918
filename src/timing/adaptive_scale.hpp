// Adaptive scale (AIPerf 0.11 §1.10): one concurrency run whose session limit is moved while it
// runs. It starts at min_concurrency, judges the SLA on every assessment window and raises the
// limit while the SLA holds (by the step policy); after the first failing window it refines
// between the largest level that passed and the smallest that failed until they are one apart
// (beyond AIPerf, whose boundary is the last level before the failure), takes the level that
// passed as the boundary (the ceiling, --concurrency, when every window held), holds it for the
// sustain duration and ends. A state machine over made-up times, like the Scheduler: the caller
// feeds completions and the clock and applies limit() (app/profile/adaptive_feed.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/sla_filter.hpp"
#include "core/statistics.hpp"

namespace inferperf::timing {

struct AdaptiveScaleSettings {
  int min_concurrency = 1;
  int ceiling = 1;                         // --concurrency
  double assessment_s = 5.0;               // --adaptive-assessment-period
  double sustain_s = 0;                    // --adaptive-sustain-duration
  int min_completed = 1;                   // completions a window needs before it is judged
  std::string step_policy = "sla_margin";  // sla_margin | fixed_percent_step
  // request_latency (any stat), request_throughput and goodput_ratio (avg, min, max).
  std::vector<core::SlaFilter> sla;
};

// One finished request of the phase.
struct Completion {
  core::MonoNs start_ns = 0;
  core::MonoNs end_ns = 0;
  double latency_ms = 0;  // request start to the last content response (request_latency)
  bool ok = false;        // neither an error nor cancelled
};

// What a window measured: requests started in it and finished by its end.
struct WindowStats {
  double start_s = 0, end_s = 0;  // since the phase start
  std::int64_t returned = 0;      // every completion, errors and cancels included
  std::int64_t succeeded = 0;
  core::Stats latency;            // request_latency of the successful ones, ms
  double request_throughput = 0;  // successes / window seconds
  double goodput_ratio = 0;       // successes / returned
};

struct SlaVerdict {
  std::string filter;  // as typed
  std::optional<double> value;
  bool passed = false;
};

// One line of adaptive_scale_events.jsonl.
struct AdaptiveEvent {
  std::string type;  // window, decision, boundary, sustain, terminal
  double t_s = 0;    // since the phase start
  int concurrency = 0;
  std::optional<WindowStats> window;
  std::vector<SlaVerdict> sla;
  std::optional<bool> passed;
  std::optional<int> next_concurrency;
  std::string stage;   // ramp | sustain
  std::string reason;  // decision: raise; boundary: first_failure | ceiling | none_feasible;
                       // terminal: sustain_complete | budget_exhausted | stopped
};

class AdaptiveScale {
 public:
  AdaptiveScale(AdaptiveScaleSettings settings, core::MonoNs start_ns);

  // The session limit to apply now.
  int limit() const { return limit_; }
  // Any order; only completions of requests started in the current window count.
  void add(const Completion& c);
  // Judges the window when it has ended (and holds enough completions), moves the limit and
  // ends the sustain; returns the events that produced (often none).
  std::vector<AdaptiveEvent> tick(core::MonoNs now);
  // The run ended before the sustain did (duration, signal): the terminal event.
  AdaptiveEvent finish(core::MonoNs now, const std::string& reason);
  bool done() const { return stage_ == Stage::kDone; }

  std::optional<int> boundary() const { return boundary_; }
  const std::string& boundary_reason() const { return boundary_reason_; }
  // Each limit in force, in order (the ramp's steps, then the boundary).
  const std::vector<int>& limits() const { return limits_; }
  int windows() const { return windows_; }
  int sustain_windows() const { return sustain_windows_; }
  int sustain_windows_passed() const { return sustain_windows_passed_; }
  std::optional<double> sustain_started_s() const;
  const AdaptiveScaleSettings& settings() const { return settings_; }

  // The step up from `limit` after a window whose tightest filter had `headroom` (the relative
  // distance to its threshold; goodput_ratio filters are left out, and with only those the
  // headroom is 0.25): sla_margin 40 x headroom (10 at 25 % headroom), 1 to 40;
  // fixed_percent_step 25 % of the limit, at least 1.
  static int step(const std::string& policy, int limit, double headroom);

 private:
  enum class Stage { kRamp, kSustain, kDone };
  WindowStats measure(core::MonoNs now) const;
  std::vector<SlaVerdict> judge(const WindowStats& w, double& headroom) const;
  double since_start(core::MonoNs t) const;
  void set_limit(int n);
  void move_to(int next, core::MonoNs now, const WindowStats& last);
  void enter_sustain(int at, const std::string& reason, double t,
                     std::vector<AdaptiveEvent>& events);

  AdaptiveScaleSettings settings_;
  core::MonoNs start_ns_;
  core::MonoNs window_start_ns_;
  Stage stage_ = Stage::kRamp;
  int limit_;
  std::optional<int> good_, bad_;  // the largest level that passed, the smallest that failed
  WindowStats last_window_;
  std::optional<int> boundary_;
  std::string boundary_reason_;
  std::optional<core::MonoNs> sustain_start_ns_;
  std::vector<Completion> window_;  // completions of requests started in the current window
  std::vector<int> limits_;
  int windows_ = 0, sustain_windows_ = 0, sustain_windows_passed_ = 0;
};

}  // namespace inferperf::timing
