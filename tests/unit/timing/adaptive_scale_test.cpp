// The adaptive-scale controller on made-up times: a server whose request latency is a known
// function of the concurrency, so the boundary is known; the ramp, the refinement, the settle
// after a decrease, the sustain, the ceiling, the no-feasible case and the step policies.
#include "timing/adaptive_scale.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace inferperf::timing {
namespace {

constexpr core::MonoNs kS = 1'000'000'000;
constexpr core::MonoNs kMs = 1'000'000;

AdaptiveScaleSettings settings(int ceiling, const char* sla) {
  AdaptiveScaleSettings s;
  s.ceiling = ceiling;
  s.assessment_s = 1.0;
  s.sustain_s = 2.0;
  s.sla = {*core::parse_sla_filter(sla)};
  return s;
}

// Drives the controller for `seconds`: every 10 ms, one request starts at the current limit and
// finishes latency(limit) later; ticks every 50 ms. Returns every event.
std::vector<AdaptiveEvent> drive(AdaptiveScale& a, double seconds,
                                 const std::function<double(int)>& latency_ms,
                                 core::MonoNs start = 0) {
  std::vector<AdaptiveEvent> events;
  std::vector<Completion> in_flight;
  for (core::MonoNs now = start; now < start + static_cast<core::MonoNs>(seconds * kS);
       now += 10 * kMs) {
    for (auto it = in_flight.begin(); it != in_flight.end();) {
      if (it->end_ns <= now) {
        a.add(*it);
        it = in_flight.erase(it);
      } else {
        ++it;
      }
    }
    const double l = latency_ms(a.limit());
    in_flight.push_back({now, now + static_cast<core::MonoNs>(l * kMs), l, true});
    if ((now - start) % (50 * kMs) == 0) {
      for (auto& e : a.tick(now)) events.push_back(e);
      if (a.done()) break;
    }
  }
  return events;
}

std::vector<std::string> types(const std::vector<AdaptiveEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) out.push_back(e.type);
  return out;
}

// 55 + 90 (C - 1) ms, as the capacity mock with --ttft 10 --itl 5 --itl-ms-per-stream 10 and
// 10-token answers: 235 ms at 3, 325 ms at 4; "p99 under 280" holds up to 3.
double mock_latency(int c) {
  return 55.0 + 90.0 * (c - 1);
}

TEST(AdaptiveScale, RampsPastTheBoundaryRefinesAndSustainsAtIt) {
  AdaptiveScale a(settings(8, "request_latency:p99:lt:280"), 0);
  EXPECT_EQ(a.limit(), 1);
  const auto events = drive(a, 30, mock_latency);
  ASSERT_TRUE(a.done());
  EXPECT_EQ(a.boundary(), 3);
  EXPECT_EQ(a.boundary_reason(), "first_failure");
  // 1 passes with 80 % headroom: a step of 32, cut to the ceiling; 8 fails; then bisection.
  EXPECT_EQ(a.limits(), (std::vector<int>{1, 8, 4, 2, 3}));
  EXPECT_EQ(events.back().type, "terminal");
  EXPECT_EQ(events.back().reason, "sustain_complete");
  EXPECT_EQ(a.sustain_windows(), a.sustain_windows_passed());
  EXPECT_GE(a.sustain_windows(), 1);
  ASSERT_TRUE(a.sustain_started_s());
  const auto t = types(events);
  EXPECT_EQ(std::count(t.begin(), t.end(), "boundary"), 1);
  EXPECT_EQ(std::count(t.begin(), t.end(), "sustain"), 1);
  // The window judged at 4 began only after the sessions at 8 could have finished: it starts
  // later than the decision by the slowest request at 8 (685 ms).
  double lowered_at = -1;
  int judged_at_4 = 0;
  for (const auto& e : events) {
    if (e.type == "decision" && e.next_concurrency == 4) lowered_at = e.t_s;
    if (e.type != "window" || e.concurrency != 4) continue;
    ASSERT_TRUE(e.window);
    ++judged_at_4;
    EXPECT_GE(e.window->start_s, lowered_at + 0.685 - 1e-9);
    EXPECT_NEAR(e.window->latency.max, 325.0, 1e-6) << "no request from the 8 level";
  }
  EXPECT_GT(lowered_at, 0);
  EXPECT_EQ(judged_at_4, 1);
}

TEST(AdaptiveScale, EveryWindowPassingSustainsAtTheCeiling) {
  AdaptiveScale a(settings(6, "request_latency:avg:lt:10000"), 0);
  const auto events = drive(a, 30, mock_latency);
  EXPECT_EQ(a.boundary(), 6);
  EXPECT_EQ(a.boundary_reason(), "ceiling");
  EXPECT_EQ(a.limits(), (std::vector<int>{1, 6}));
  EXPECT_TRUE(a.done());
}

TEST(AdaptiveScale, NothingFeasibleHoldsTheMinimum) {
  AdaptiveScale a(settings(6, "request_latency:p50:lt:10"), 0);
  drive(a, 30, mock_latency);
  EXPECT_EQ(a.boundary(), 1);
  EXPECT_EQ(a.boundary_reason(), "none_feasible");
}

TEST(AdaptiveScale, WindowsWaitForCompletionsAndTheRunCanEndFirst) {
  AdaptiveScaleSettings s = settings(8, "request_latency:p99:lt:280");
  s.min_completed = 1000;  // never reached: no window is ever judged
  AdaptiveScale a(s, 0);
  EXPECT_TRUE(drive(a, 5, mock_latency).empty());
  EXPECT_EQ(a.limit(), 1);
  const auto end = a.finish(5 * kS, "budget_exhausted");
  EXPECT_EQ(end.type, "terminal");
  EXPECT_EQ(end.reason, "budget_exhausted");
  EXPECT_DOUBLE_EQ(end.t_s, 5.0);
  EXPECT_FALSE(a.boundary());
  EXPECT_TRUE(a.done());
}

TEST(AdaptiveScale, ThroughputAndGoodputAreJudgedPerWindow) {
  // Half the requests fail: goodput 0.5 fails "goodput_ratio:avg:ge:0.9" at once.
  AdaptiveScale a(settings(8, "goodput_ratio:avg:ge:0.9"), 0);
  for (int i = 0; i < 20; ++i) a.add({i * 10 * kMs, i * 10 * kMs + 5 * kMs, 5, i % 2 == 0});
  const auto events = a.tick(1 * kS);
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events[0].window);
  EXPECT_EQ(events[0].window->returned, 20);
  EXPECT_EQ(events[0].window->succeeded, 10);
  EXPECT_DOUBLE_EQ(events[0].window->goodput_ratio, 0.5);
  EXPECT_DOUBLE_EQ(events[0].window->request_throughput, 10.0);
  EXPECT_FALSE(*events[0].passed);
  EXPECT_EQ(a.boundary_reason(), "none_feasible");
}

TEST(AdaptiveScale, StepPolicies) {
  EXPECT_EQ(AdaptiveScale::step("sla_margin", 5, 0.25), 10);
  EXPECT_EQ(AdaptiveScale::step("sla_margin", 5, 1.0), 40);
  EXPECT_EQ(AdaptiveScale::step("sla_margin", 5, 3.0), 40);
  EXPECT_EQ(AdaptiveScale::step("sla_margin", 5, 0.01), 1);
  EXPECT_EQ(AdaptiveScale::step("fixed_percent_step", 40, 0.5), 10);
  EXPECT_EQ(AdaptiveScale::step("fixed_percent_step", 2, 0.5), 1);
}

}  // namespace
}  // namespace inferperf::timing
