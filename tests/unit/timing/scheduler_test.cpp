// The scheduler with made-up times: exact deadlines, refills, ramps, caps, sessions, stops.
#include "timing/scheduler.hpp"
#include "scheduler_fixture.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <vector>

namespace inferperf::timing {
namespace {

using fixture::kMs;
using fixture::kStart;
using fixture::poll;

std::vector<SessionShape> single_turn(std::size_t n) {
  return std::vector<SessionShape>(n, SessionShape{});
}

Scheduler make(const PhasePlan& plan, std::vector<SessionShape> shapes,
               SamplingStrategy strategy = SamplingStrategy::kSequential) {
  const std::size_t n = shapes.size();
  return Scheduler(plan, std::move(shapes), ConversationSampler(strategy, n, std::mt19937_64(1)),
                   std::mt19937_64(2), std::mt19937_64(3), kStart);
}

TEST(SchedulerBurst, KeepsNInFlightAndRefillsOnReturn) {
  PhasePlan p;
  p.concurrency = 3;
  p.request_count = 7;
  auto s = make(p, single_turn(5));
  auto first = poll(s, kStart);
  ASSERT_EQ(first.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(first[i].id, static_cast<std::int64_t>(i));
    EXPECT_EQ(first[i].session, static_cast<std::int64_t>(i));
    EXPECT_EQ(first[i].conversation_index, i);
    EXPECT_EQ(first[i].turn_index, 0);
    EXPECT_EQ(first[i].intended_ns, kStart);
    EXPECT_EQ(first[i].issued_ns, kStart);
    EXPECT_FALSE(first[i].cancel_after_ns.has_value());
  }
  EXPECT_TRUE(poll(s, kStart + kMs).empty()) << "no slot is free";
  EXPECT_FALSE(s.next_wakeup().has_value()) << "only a return can unblock";
  s.returned(first[1].id, first[1].session, kStart + 5 * kMs);
  auto refill = poll(s, kStart + 5 * kMs);
  ASSERT_EQ(refill.size(), 1u);
  EXPECT_EQ(refill[0].intended_ns, kStart + 5 * kMs) << "closed loop: due when the slot frees";
  EXPECT_EQ(refill[0].conversation_index, 3u);
  std::int64_t sent = 4;
  core::MonoNs t = kStart + 10 * kMs;
  std::vector<Credit> outstanding = {first[0], first[2], refill[0]};
  while (!outstanding.empty()) {
    const Credit c = outstanding.front();
    outstanding.erase(outstanding.begin());
    s.returned(c.id, c.session, t);
    for (auto& n : poll(s, t)) outstanding.push_back(n), ++sent;
    t += kMs;
  }
  EXPECT_EQ(sent, 7);
  EXPECT_EQ(s.issued(), 7);
  EXPECT_TRUE(s.sending_done());
  EXPECT_TRUE(s.idle());
}

TEST(SchedulerBurst, DurationStopsSendingAtItsEnd) {
  PhasePlan p;
  p.concurrency = 1;
  p.duration_s = 0.1;
  auto s = make(p, single_turn(2));
  auto c = poll(s, kStart);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(s.next_wakeup(), kStart + 100 * kMs);
  s.returned(c[0].id, c[0].session, kStart + 40 * kMs);
  auto d = poll(s, kStart + 40 * kMs);
  EXPECT_EQ(d.size(), 1u);
  EXPECT_TRUE(poll(s, kStart + 100 * kMs).empty());
  EXPECT_TRUE(s.sending_done());
  EXPECT_EQ(s.sending_end_ns(), kStart + 100 * kMs);
  EXPECT_FALSE(s.idle()) << "one request is still out";
}

TEST(SchedulerBurst, AnInfiniteDurationNeverEnds) {
  PhasePlan p;
  p.concurrency = 1;
  p.duration_s = std::numeric_limits<double>::infinity();
  auto s = make(p, single_turn(2));
  auto c = poll(s, kStart);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(s.next_wakeup().has_value()) << "no deadline: only a return unblocks";
  const core::MonoNs much_later = kStart + 1'000'000 * 1'000 * kMs;
  s.returned(c[0].id, c[0].session, much_later);
  EXPECT_EQ(poll(s, much_later).size(), 1u);
  EXPECT_FALSE(s.sending_done());
}

TEST(SchedulerRate, ConstantArrivalsAtExactDeadlines) {
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 10;
  p.request_count = 5;
  auto s = make(p, single_turn(3));
  EXPECT_TRUE(poll(s, kStart).empty()) << "the first arrival is one interval in";
  EXPECT_EQ(s.next_wakeup(), kStart + 100 * kMs);
  for (int k = 1; k <= 5; ++k) {
    EXPECT_TRUE(poll(s, kStart + k * 100 * kMs - 1).empty());
    auto c = poll(s, kStart + k * 100 * kMs);
    ASSERT_EQ(c.size(), 1u) << k;
    EXPECT_EQ(c[0].intended_ns, kStart + k * 100 * kMs);
    EXPECT_EQ(c[0].conversation_index, static_cast<std::size_t>((k - 1) % 3));
  }
  EXPECT_TRUE(s.sending_done());
}

TEST(SchedulerRate, SmallLatenessDoesNotDriftAndLargeLatenessSkipsOnlyWhatIsPastTheWindow) {
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 1000;  // 1 ms apart
  p.request_count = 1000;
  auto s = make(p, single_turn(1));
  // Woken 30 us late every time: the schedule stays on the 1 ms grid.
  for (int k = 1; k <= 100; ++k) {
    auto c = poll(s, kStart + k * kMs + 30'000);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].intended_ns, kStart + k * kMs);
  }
  EXPECT_EQ(s.next_wakeup(), kStart + 101 * kMs);
  // Woken 1.5 ms late (within the 2 ms catch-up window): the missed arrival goes out too, both
  // with their grid times, so the rate does not drift.
  auto behind = poll(s, kStart + 102 * kMs + kMs / 2);
  ASSERT_EQ(behind.size(), 2u);
  EXPECT_EQ(behind[0].intended_ns, kStart + 101 * kMs);
  EXPECT_EQ(behind[1].intended_ns, kStart + 102 * kMs);
  EXPECT_EQ(s.next_wakeup(), kStart + 103 * kMs);
  EXPECT_EQ(s.skipped_arrivals(), 0);
  // Woken 10.5 ms late: the due arrival goes out late (its lag shows), the ones more than 2 ms
  // old are skipped and counted, the last 2 ms go out, and the grid keeps its phase.
  auto late = poll(s, kStart + 113 * kMs + kMs / 2);
  ASSERT_EQ(late.size(), 3u);
  EXPECT_EQ(late[0].intended_ns, kStart + 103 * kMs);
  EXPECT_EQ(late[1].intended_ns, kStart + 112 * kMs);
  EXPECT_EQ(late[2].intended_ns, kStart + 113 * kMs);
  EXPECT_EQ(s.skipped_arrivals(), 8) << "104 .. 111 ms";
  EXPECT_EQ(s.next_wakeup(), kStart + 114 * kMs);
}

TEST(SchedulerRate, ConcurrencyCeilingDropsArrivalsAndRetriesTheSameConversation) {
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 10;
  p.concurrency = 1;
  p.request_count = 10;
  auto s = make(p, single_turn(4));
  auto a = poll(s, kStart + 100 * kMs);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].conversation_index, 0u);
  EXPECT_TRUE(poll(s, kStart + 200 * kMs).empty());
  EXPECT_TRUE(poll(s, kStart + 300 * kMs).empty());
  EXPECT_EQ(s.dropped_arrivals(), 2);
  s.returned(a[0].id, a[0].session, kStart + 350 * kMs);
  EXPECT_TRUE(poll(s, kStart + 350 * kMs).empty()) << "rate mode waits for the next arrival";
  auto b = poll(s, kStart + 400 * kMs);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].conversation_index, 1u) << "the dropped conversation, not a new draw";
  EXPECT_EQ(b[0].intended_ns, kStart + 400 * kMs);
}

std::vector<SessionShape> three_turns() {
  SessionShape s;
  s.turns = 3;
  s.delay_ms = {0, 50, 100};
  return {s, s};
}

TEST(SchedulerSessions, LaterTurnsFollowTheirDelaysOnTheSameSession) {
  PhasePlan p;
  p.concurrency = 1;
  p.num_sessions = 1;
  auto s = make(p, three_turns());
  auto t0 = poll(s, kStart);
  ASSERT_EQ(t0.size(), 1u);
  EXPECT_EQ(t0[0].num_turns, 3);
  EXPECT_FALSE(t0[0].final_turn());
  s.returned(t0[0].id, t0[0].session, kStart + 10 * kMs);
  EXPECT_TRUE(poll(s, kStart + 59 * kMs).empty());
  EXPECT_EQ(s.next_wakeup(), kStart + 60 * kMs);
  auto t1 = poll(s, kStart + 60 * kMs);
  ASSERT_EQ(t1.size(), 1u);
  EXPECT_EQ(t1[0].turn_index, 1);
  EXPECT_EQ(t1[0].session, t0[0].session);
  EXPECT_EQ(t1[0].x_correlation_id, t0[0].x_correlation_id);
  EXPECT_EQ(t1[0].conversation_index, t0[0].conversation_index);
  EXPECT_EQ(t1[0].intended_ns, kStart + 60 * kMs);
  s.returned(t1[0].id, t1[0].session, kStart + 70 * kMs);
  auto t2 = poll(s, kStart + 170 * kMs);
  ASSERT_EQ(t2.size(), 1u);
  EXPECT_EQ(t2[0].turn_index, 2);
  EXPECT_TRUE(t2[0].final_turn());
  EXPECT_FALSE(s.sending_done());
  s.returned(t2[0].id, t2[0].session, kStart + 180 * kMs);
  EXPECT_TRUE(s.sending_done()) << "one session was asked for and it has ended";
  EXPECT_TRUE(s.idle());
}

TEST(SchedulerSessions, ASessionHoldsItsSlotThroughItsDelays) {
  PhasePlan p;
  p.concurrency = 1;
  p.request_count = 4;
  auto s = make(p, three_turns());
  auto a = poll(s, kStart);
  s.returned(a[0].id, a[0].session, kStart + kMs);
  EXPECT_TRUE(poll(s, kStart + 2 * kMs).empty()) << "the slot stays with the waiting session";
  auto b = poll(s, kStart + 51 * kMs);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].turn_index, 1);
}

TEST(SchedulerSessions, RequestCountCountsEveryTurn) {
  PhasePlan p;
  p.concurrency = 2;
  p.request_count = 3;
  auto s = make(p, three_turns());
  auto a = poll(s, kStart);
  ASSERT_EQ(a.size(), 2u);
  s.returned(a[0].id, a[0].session, kStart + kMs);
  auto b = poll(s, kStart + 51 * kMs);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(s.sending_done());
  s.returned(a[1].id, a[1].session, kStart + 52 * kMs);
  EXPECT_TRUE(poll(s, kStart + 200 * kMs).empty()) << "no continuation after the count";
}

TEST(SchedulerRate, ContinuationsTakeArrivalsBeforeNewSessions) {
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 10;
  p.request_count = 10;
  SessionShape two;
  two.turns = 2;
  auto s = make(p, {two, two, two});
  auto a = poll(s, kStart + 100 * kMs);
  s.returned(a[0].id, a[0].session, kStart + 150 * kMs);
  auto b = poll(s, kStart + 200 * kMs);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].session, a[0].session);
  EXPECT_EQ(b[0].turn_index, 1);
  auto c = poll(s, kStart + 300 * kMs);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].turn_index, 0);
  EXPECT_NE(c[0].session, a[0].session);
}

TEST(SchedulerRamp, ConcurrencyStepsFromOneToTarget) {
  PhasePlan p;
  p.concurrency = 5;
  p.concurrency_ramp_s = 4;
  p.request_count = 100;
  auto s = make(p, single_turn(3));
  EXPECT_EQ(s.session_limit(kStart), 1);
  EXPECT_EQ(s.session_limit(kStart + 999 * kMs), 1);
  EXPECT_EQ(s.session_limit(kStart + 1000 * kMs), 2);
  EXPECT_EQ(s.session_limit(kStart + 3999 * kMs), 4);
  EXPECT_EQ(s.session_limit(kStart + 4000 * kMs), 5);
  EXPECT_EQ(poll(s, kStart).size(), 1u);
  EXPECT_EQ(s.next_wakeup(), kStart + 1000 * kMs);
  EXPECT_EQ(poll(s, kStart + 1000 * kMs).size(), 1u);
  EXPECT_EQ(poll(s, kStart + 4000 * kMs).size(), 3u);
  EXPECT_FALSE(s.next_wakeup().has_value());
}

TEST(SchedulerRamp, RateRisesInTenthsOfASecond) {
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 100;
  p.rate_ramp_s = 10;
  p.request_count = 10;
  auto s = make(p, single_turn(1));
  EXPECT_DOUBLE_EQ(s.rate_at(kStart), 1.0);  // 100 * 0.1 / 10
  EXPECT_DOUBLE_EQ(s.rate_at(kStart + 5000 * kMs), 50.0);
  EXPECT_DOUBLE_EQ(s.rate_at(kStart + 5050 * kMs), 50.0);
  EXPECT_DOUBLE_EQ(s.rate_at(kStart + 20000 * kMs), 100.0);
  EXPECT_EQ(s.next_wakeup(), kStart + 1000 * kMs) << "first interval at 1 req/s";
}

TEST(SchedulerPrefill, FirstTokenFreesThePrefillSlot) {
  PhasePlan p;
  p.concurrency = 3;
  p.prefill_concurrency = 1;
  p.request_count = 3;
  auto s = make(p, single_turn(3));
  auto a = poll(s, kStart);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_TRUE(poll(s, kStart + kMs).empty());
  s.first_token(a[0].id);
  auto b = poll(s, kStart + 2 * kMs);
  ASSERT_EQ(b.size(), 1u);
  s.returned(b[0].id, b[0].session, kStart + 3 * kMs);  // no first token: the return frees it
  EXPECT_EQ(poll(s, kStart + 3 * kMs).size(), 1u);
}

TEST(SchedulerCancellation, DrawsAtTheConfiguredRate) {
  PhasePlan p;
  p.concurrency = 10'000;
  p.request_count = 4000;
  p.cancel_rate_pct = 30;
  p.cancel_delay_s = 0.25;
  auto s = make(p, single_turn(10));
  auto all = poll(s, kStart);
  ASSERT_EQ(all.size(), 4000u);
  int cancelled = 0;
  for (const auto& c : all) {
    if (c.cancel_after_ns) {
      ++cancelled;
      EXPECT_EQ(*c.cancel_after_ns, 250 * kMs);
    }
  }
  EXPECT_NEAR(cancelled / 4000.0, 0.30, 0.03);
}

TEST(SchedulerFixed, FirstTurnsAtTheirTraceTimesInOrder) {
  PhasePlan p;
  p.fixed_schedule = true;
  p.schedule_zero_ms = 1000;
  std::vector<SessionShape> shapes(3);
  shapes[0].timestamp_ms = {1000.0};
  shapes[1].timestamp_ms = {1500.0};
  shapes[2].timestamp_ms = {1200.0};
  auto s = make(p, shapes);
  auto a = poll(s, kStart);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].conversation_index, 0u);
  EXPECT_EQ(s.next_wakeup(), kStart + 200 * kMs);
  auto late = poll(s, kStart + 700 * kMs);  // both remaining are due: late sends go out at once
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[0].conversation_index, 2u);
  EXPECT_EQ(late[0].intended_ns, kStart + 200 * kMs);
  EXPECT_EQ(late[1].conversation_index, 1u);
  EXPECT_EQ(late[1].intended_ns, kStart + 500 * kMs);
  EXPECT_FALSE(s.sending_done());
  for (const auto& c : {a[0], late[0], late[1]}) s.returned(c.id, c.session, kStart + 800 * kMs);
  EXPECT_TRUE(s.sending_done());
}

TEST(SchedulerFixed, ConcurrencyIsABlockingCeiling) {
  PhasePlan p;
  p.fixed_schedule = true;
  p.concurrency = 1;
  std::vector<SessionShape> shapes(2);
  shapes[0].timestamp_ms = {0.0};
  shapes[1].timestamp_ms = {10.0};
  auto s = make(p, shapes);
  auto a = poll(s, kStart);
  EXPECT_TRUE(poll(s, kStart + 10 * kMs).empty());
  EXPECT_EQ(s.dropped_arrivals(), 0) << "fixed schedules wait, they do not drop";
  s.returned(a[0].id, a[0].session, kStart + 30 * kMs);
  auto b = poll(s, kStart + 30 * kMs);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].intended_ns, kStart + 10 * kMs);
}

TEST(SchedulerFixed, LaterTurnsUseTheirOwnTimestamps) {
  PhasePlan p;
  p.fixed_schedule = true;
  SessionShape two;
  two.turns = 2;
  two.timestamp_ms = {0.0, 100.0};
  auto s = make(p, {two});
  auto a = poll(s, kStart);
  s.returned(a[0].id, a[0].session, kStart + 20 * kMs);
  EXPECT_TRUE(poll(s, kStart + 99 * kMs).empty());
  auto b = poll(s, kStart + 100 * kMs);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].intended_ns, kStart + 100 * kMs);
}

TEST(Scheduler, StopEndsSendingAtOnce) {
  PhasePlan p;
  p.concurrency = 2;
  p.request_count = 100;
  auto s = make(p, single_turn(2));
  auto a = poll(s, kStart);
  s.stop(kStart + kMs);
  EXPECT_TRUE(s.sending_done());
  s.returned(a[0].id, a[0].session, kStart + 2 * kMs);
  EXPECT_TRUE(poll(s, kStart + 2 * kMs).empty());
  EXPECT_FALSE(s.idle());
  s.returned(a[1].id, a[1].session, kStart + 3 * kMs);
  EXPECT_TRUE(s.idle());
}

TEST(ConversationSampler, Strategies) {
  ConversationSampler seq(SamplingStrategy::kSequential, 3, std::mt19937_64(1));
  EXPECT_EQ(seq.next(), 0u);
  EXPECT_EQ(seq.next(), 1u);
  EXPECT_EQ(seq.next(), 2u);
  EXPECT_EQ(seq.next(), 0u);
  ConversationSampler shuffle(SamplingStrategy::kShuffle, 7, std::mt19937_64(42));
  for (int cycle = 0; cycle < 3; ++cycle) {
    std::set<std::size_t> seen;
    for (int i = 0; i < 7; ++i) seen.insert(shuffle.next());
    EXPECT_EQ(seen.size(), 7u) << "every index once per cycle";
  }
  ConversationSampler random(SamplingStrategy::kRandom, 5, std::mt19937_64(7));
  std::vector<int> counts(5);
  for (int i = 0; i < 5000; ++i) ++counts[random.next()];
  for (int c : counts) EXPECT_NEAR(c, 1000, 120);
}

}  // namespace
}  // namespace inferperf::timing
