// Bounded work per poll: however far behind an always-due schedule is, the scheduler hands back
// control after a budget of work, the same credits come out as from one unbounded poll, and the
// issuer sees a stop within a bounded amount of work (the first SIGINT ignored by an
// issuer spinning through a backlog).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "scheduler_fixture.hpp"
#include "timing/issuer_loop.hpp"
#include "timing/scheduler.hpp"

namespace inferperf::timing {
namespace {

using fixture::kMs;
using fixture::kStart;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kSlowdown = 5;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr int kSlowdown = 5;
#else
constexpr int kSlowdown = 1;
#endif
#else
constexpr int kSlowdown = 1;
#endif

Scheduler make(const PhasePlan& plan, std::size_t conversations, core::MonoNs start = kStart) {
  return Scheduler(
      plan, std::vector<SessionShape>(conversations),
      ConversationSampler(SamplingStrategy::kSequential, conversations, std::mt19937_64(1)),
      std::mt19937_64(2), std::mt19937_64(3), start);
}

// Polls at `now` with `budget` until nothing more is due then; every call's size is checked.
std::vector<Credit> drain(Scheduler& s, core::MonoNs now, std::size_t budget, int& polls) {
  std::vector<Credit> all;
  polls = 0;
  for (;;) {
    std::vector<Credit> out;
    s.poll(now, out, budget);
    ++polls;
    EXPECT_LE(out.size(), budget);
    all.insert(all.end(), out.begin(), out.end());
    if (s.next_wakeup() != now) return all;
  }
}

TEST(PollBudget, FixedScheduleBacklogComesOutInBudgetSizedPollsInOrder) {
  PhasePlan p;
  p.fixed_schedule = true;
  auto whole = make(p, 1000);
  auto bounded = make(p, 1000);
  std::vector<Credit> once;
  whole.poll(kStart + 5 * kMs, once);
  ASSERT_EQ(once.size(), 1000u) << "unbounded: the whole backlog in one poll";
  int polls = 0;
  const auto parts = drain(bounded, kStart + 5 * kMs, 100, polls);
  EXPECT_EQ(polls, 10) << "ten full polls: the last one runs out of sessions, not of budget";
  ASSERT_EQ(parts.size(), once.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    EXPECT_EQ(parts[i].id, once[i].id);
    EXPECT_EQ(parts[i].conversation_index, once[i].conversation_index);
    EXPECT_EQ(parts[i].intended_ns, once[i].intended_ns);
  }
  EXPECT_FALSE(bounded.next_wakeup().has_value()) << "everything sent: only returns remain";
}

TEST(PollBudget, RateCatchUpSkipsTheSameArrivalsAcrossPolls) {
  PhasePlan p;
  p.pattern = ArrivalPattern::kPoisson;
  p.rate = 1e6;
  p.request_count = 1'000'000;
  auto whole = make(p, 4);
  auto bounded = make(p, 4);
  // A 100 ms stall at 1e6/s: one late send, ~98,000 arrivals older than the 2 ms window skipped,
  // then the last 2 ms of arrivals sent.
  const core::MonoNs now = kStart + 100 * kMs;
  std::vector<Credit> once;
  whole.poll(now, once);
  int polls = 0;
  const auto parts = drain(bounded, now, 256, polls);
  EXPECT_GT(whole.skipped_arrivals(), 90'000);
  EXPECT_EQ(bounded.skipped_arrivals(), whole.skipped_arrivals());
  EXPECT_GT(polls, 300) << "the skipping itself is bounded per poll";
  ASSERT_EQ(parts.size(), once.size());
  for (std::size_t i = 0; i < parts.size(); ++i)
    ASSERT_EQ(parts[i].intended_ns, once[i].intended_ns) << i;
  EXPECT_EQ(bounded.next_wakeup(), whole.next_wakeup());
}

TEST(PollBudget, AnIntervalThatRoundsToZeroStillMovesTheScheduleForward) {
  // Beyond what validation accepts (1e7/s): the intervals would round to 0 ns, and a schedule
  // that never advances was the endless loop.
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 1e11;
  p.request_count = 100;
  auto s = make(p, 2);
  std::vector<Credit> out;
  s.poll(kStart + 50, out);
  ASSERT_EQ(out.size(), 50u);
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i].intended_ns, kStart + 1 + static_cast<core::MonoNs>(i));
}

// Counts what it is given, spending `cost` of busy time on each credit (a loaded worker pool).
struct SlowSink final : CreditSink {
  explicit SlowSink(std::chrono::nanoseconds c) : cost(c) {}
  std::chrono::nanoseconds cost;
  std::atomic<std::int64_t> got{0};
  void dispatch(Credit) override {
    const auto until = std::chrono::steady_clock::now() + cost;
    while (std::chrono::steady_clock::now() < until) {
    }
    got.fetch_add(1);
  }
};

// Starts the loop, lets it work for 50 ms, stops it and returns how long the stop took; the
// credits handed out after the stop request are at most one poll's budget.
double stop_latency_ms(Scheduler& s, SlowSink& sink) {
  core::SteadyClock clock;
  PreciseWaiter waiter;
  IssuerLoop loop(clock, waiter, s, sink);
  std::thread t([&] { loop.run(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto asked = std::chrono::steady_clock::now();
  loop.stop();
  const std::int64_t at_stop = sink.got.load();
  t.join();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
  EXPECT_GT(at_stop, 0) << "the loop was busy sending when the stop came";
  EXPECT_LE(sink.got.load() - at_stop, static_cast<std::int64_t>(IssuerLoop::kPollBudget));
  EXPECT_TRUE(s.sending_done());
  return ms;
}

TEST(IssuerStop, AFixedScheduleBacklogStopsWithin100Ms) {
  // 100,000 first turns all due at once, 20 us of work each: 2 s to send without a budget.
  core::SteadyClock clock;
  PhasePlan p;
  p.fixed_schedule = true;
  auto s = make(p, 100'000, clock.now_ns());
  SlowSink sink(std::chrono::microseconds(20));
  EXPECT_LT(stop_latency_ms(s, sink), 100.0 * kSlowdown);
  EXPECT_LT(sink.got.load(), 100'000);
}

TEST(IssuerStop, TheHighestRateStopsWithin100Ms) {
  // 10,000,000/s with 20 us per send: always behind, always catching up and skipping.
  core::SteadyClock clock;
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 1e7;
  p.request_count = 1'000'000'000'000;
  auto s = make(p, 4, clock.now_ns());
  SlowSink sink(std::chrono::microseconds(20));
  EXPECT_LT(stop_latency_ms(s, sink), 100.0 * kSlowdown);
  EXPECT_GT(s.skipped_arrivals(), 0) << "the catch-up path was exercised";
}

}  // namespace
}  // namespace inferperf::timing
