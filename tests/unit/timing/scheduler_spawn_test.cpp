// Child sessions with made-up times: spawns after a parent turn returns, joins that hold a parent
// turn until its children have ended, background children, slots, counts and the end of a run.
#include <gtest/gtest.h>

#include <vector>

#include "scheduler_fixture.hpp"
#include "timing/scheduler.hpp"

namespace inferperf::timing {
namespace {

using fixture::kMs;
using fixture::kStart;
using fixture::poll;

Scheduler make_family(const PhasePlan& plan, std::vector<SessionShape> shapes) {
  auto roots = root_indices(shapes);
  return Scheduler(
      plan, std::move(shapes),
      ConversationSampler(SamplingStrategy::kSequential, std::move(roots), std::mt19937_64(1)),
      std::mt19937_64(2), std::mt19937_64(3), kStart);
}

// Conversation 0: a parent of 3 turns (delays 0, 100, 100 ms) whose turn 0 spawns conversation 1
// (2 turns, 20 ms apart) 30 ms after it returns; turn 2 joins the child.
std::vector<SessionShape> parent_and_child(bool join) {
  SessionShape parent;
  parent.turns = 3;
  parent.delay_ms = {0, 100, 100};
  parent.spawns.push_back({0, 1, 30.0, join ? std::optional<int>(0) : std::nullopt});
  if (join) parent.joins.push_back({2, 0});
  SessionShape child;
  child.turns = 2;
  child.delay_ms = {0, 20};
  child.root = false;
  return {parent, child};
}

TEST(SchedulerSpawn, ChildStartsAtItsOffsetAsASessionOfItsOwn) {
  PhasePlan p;
  p.concurrency = 1;
  p.num_sessions = 1;
  auto s = make_family(p, parent_and_child(true));
  auto a = poll(s, kStart);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].conversation_index, 0u);
  s.returned(a[0].id, a[0].session, kStart + 10 * kMs);
  EXPECT_EQ(s.next_wakeup(), kStart + 40 * kMs) << "the child is due 30 ms after the return";
  EXPECT_TRUE(poll(s, kStart + 39 * kMs).empty());
  auto c0 = poll(s, kStart + 40 * kMs);
  ASSERT_EQ(c0.size(), 1u) << "the child goes out although the only slot is taken";
  EXPECT_EQ(c0[0].conversation_index, 1u);
  EXPECT_EQ(c0[0].turn_index, 0);
  EXPECT_EQ(c0[0].num_turns, 2);
  EXPECT_NE(c0[0].session, a[0].session);
  EXPECT_NE(c0[0].x_correlation_id, a[0].x_correlation_id);
  EXPECT_EQ(c0[0].intended_ns, kStart + 40 * kMs);
  EXPECT_EQ(s.sessions_started(), 1) << "children do not count as sessions";
  EXPECT_EQ(s.children_started(), 1);
  auto p1 = poll(s, kStart + 110 * kMs);
  ASSERT_EQ(p1.size(), 1u);
  EXPECT_EQ(p1[0].session, a[0].session);
  EXPECT_EQ(p1[0].turn_index, 1) << "turn 1 does not wait for the child";
  s.returned(c0[0].id, c0[0].session, kStart + 50 * kMs);
  s.returned(p1[0].id, p1[0].session, kStart + 120 * kMs);
  auto c1 = poll(s, kStart + 120 * kMs);  // child turn 1 was due at 70 ms
  ASSERT_EQ(c1.size(), 1u);
  EXPECT_EQ(c1[0].session, c0[0].session);
  EXPECT_EQ(c1[0].x_correlation_id, c0[0].x_correlation_id);
  EXPECT_EQ(c1[0].turn_index, 1);
  EXPECT_EQ(c1[0].intended_ns, kStart + 70 * kMs);
  // Parent turn 2 would be due at 220 ms; the child's last turn is still out.
  EXPECT_TRUE(poll(s, kStart + 300 * kMs).empty()) << "the join holds the parent's turn 2";
  s.returned(c1[0].id, c1[0].session, kStart + 350 * kMs);
  auto p2 = poll(s, kStart + 350 * kMs);
  ASSERT_EQ(p2.size(), 1u);
  EXPECT_EQ(p2[0].session, a[0].session);
  EXPECT_EQ(p2[0].turn_index, 2);
  EXPECT_EQ(p2[0].intended_ns, kStart + 350 * kMs) << "due when the last child ended";
  EXPECT_FALSE(s.sending_done());
  s.returned(p2[0].id, p2[0].session, kStart + 360 * kMs);
  EXPECT_TRUE(s.sending_done());
  EXPECT_TRUE(s.idle());
  EXPECT_EQ(s.issued(), 5);
}

TEST(SchedulerSpawn, JoinedTurnKeepsItsOwnDelayWhenChildrenEndEarly) {
  PhasePlan p;
  p.concurrency = 1;
  p.num_sessions = 1;
  auto s = make_family(p, parent_and_child(true));
  auto a = poll(s, kStart);
  s.returned(a[0].id, a[0].session, kStart);
  auto c0 = poll(s, kStart + 30 * kMs);
  ASSERT_EQ(c0.size(), 1u);
  s.returned(c0[0].id, c0[0].session, kStart + 31 * kMs);
  auto c1 = poll(s, kStart + 51 * kMs);
  ASSERT_EQ(c1.size(), 1u);
  s.returned(c1[0].id, c1[0].session, kStart + 52 * kMs);
  auto p1 = poll(s, kStart + 100 * kMs);
  ASSERT_EQ(p1.size(), 1u);
  s.returned(p1[0].id, p1[0].session, kStart + 150 * kMs);
  EXPECT_EQ(s.next_wakeup(), kStart + 250 * kMs) << "the child ended long ago: the delay rules";
  auto p2 = poll(s, kStart + 250 * kMs);
  ASSERT_EQ(p2.size(), 1u);
  EXPECT_EQ(p2[0].turn_index, 2);
  EXPECT_EQ(p2[0].intended_ns, kStart + 250 * kMs);
}

TEST(SchedulerSpawn, JoinWaitsForEveryChildOfTheGroup) {
  PhasePlan p;
  p.concurrency = 1;
  p.num_sessions = 1;
  SessionShape parent;
  parent.turns = 2;
  parent.spawns = {{0, 1, 0.0, 0}, {0, 2, 5.0, 0}};
  parent.joins = {{1, 0}};
  SessionShape child;
  child.root = false;
  auto s = make_family(p, {parent, child, child});
  auto a = poll(s, kStart);
  s.returned(a[0].id, a[0].session, kStart + 10 * kMs);
  auto c = poll(s, kStart + 15 * kMs);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].conversation_index, 1u);
  EXPECT_EQ(c[1].conversation_index, 2u);
  s.returned(c[1].id, c[1].session, kStart + 20 * kMs);
  EXPECT_TRUE(poll(s, kStart + 25 * kMs).empty()) << "one child of the group is still out";
  s.returned(c[0].id, c[0].session, kStart + 30 * kMs);
  auto j = poll(s, kStart + 30 * kMs);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0].session, a[0].session);
  EXPECT_EQ(j[0].turn_index, 1);
}

TEST(SchedulerSpawn, BackgroundChildOutlivesItsParentAndTheRunWaitsForIt) {
  PhasePlan p;
  p.concurrency = 1;
  p.num_sessions = 1;
  auto s = make_family(p, parent_and_child(false));
  auto a = poll(s, kStart);
  s.returned(a[0].id, a[0].session, kStart);
  auto c0 = poll(s, kStart + 30 * kMs);
  ASSERT_EQ(c0.size(), 1u);
  auto p1 = poll(s, kStart + 100 * kMs);
  ASSERT_EQ(p1.size(), 1u);
  s.returned(p1[0].id, p1[0].session, kStart + 100 * kMs);
  auto p2 = poll(s, kStart + 200 * kMs);
  ASSERT_EQ(p2.size(), 1u) << "no join: the parent does not wait for the child";
  EXPECT_EQ(p2[0].turn_index, 2);
  s.returned(p2[0].id, p2[0].session, kStart + 210 * kMs);
  EXPECT_FALSE(s.sending_done()) << "the background child still has a turn to send";
  s.returned(c0[0].id, c0[0].session, kStart + 300 * kMs);
  auto c1 = poll(s, kStart + 320 * kMs);
  ASSERT_EQ(c1.size(), 1u);
  EXPECT_EQ(c1[0].turn_index, 1);
  s.returned(c1[0].id, c1[0].session, kStart + 330 * kMs);
  EXPECT_TRUE(s.sending_done());
  EXPECT_TRUE(s.idle());
}

TEST(SchedulerSpawn, ChildrenTakeNoSlotAndAreNeverSampled) {
  PhasePlan p;
  p.concurrency = 2;
  p.num_sessions = 3;
  auto shapes = parent_and_child(false);
  shapes.push_back(shapes[0]);  // conversation 2: another root spawning conversation 1
  auto s = make_family(p, shapes);
  auto a = poll(s, kStart);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].conversation_index, 0u);
  EXPECT_EQ(a[1].conversation_index, 2u) << "the sampler skips the child";
  s.returned(a[0].id, a[0].session, kStart);
  s.returned(a[1].id, a[1].session, kStart);
  auto c = poll(s, kStart + 30 * kMs);
  ASSERT_EQ(c.size(), 2u) << "both children go out with both slots held by their parents";
  for (const auto& x : c) EXPECT_EQ(x.conversation_index, 1u);
  EXPECT_EQ(s.session_limit(kStart), 2);
}

TEST(SchedulerSpawn, RequestCountCountsChildRequests) {
  PhasePlan p;
  p.concurrency = 1;
  p.request_count = 2;
  auto s = make_family(p, parent_and_child(true));
  auto a = poll(s, kStart);
  s.returned(a[0].id, a[0].session, kStart);
  auto c0 = poll(s, kStart + 30 * kMs);
  ASSERT_EQ(c0.size(), 1u);
  EXPECT_TRUE(s.sending_done()) << "the child's request was the second of two";
  s.returned(c0[0].id, c0[0].session, kStart + 40 * kMs);
  EXPECT_TRUE(s.idle());
}

TEST(SchedulerSpawn, FixedScheduleStartsOnlyRootsAndJoinsKeepTimestamps) {
  PhasePlan p;
  p.fixed_schedule = true;
  auto shapes = parent_and_child(true);
  shapes[0].timestamp_ms = {0.0, 100.0, 200.0};
  shapes[1].timestamp_ms = {30.0, 50.0};
  auto s = make_family(p, shapes);
  auto a = poll(s, kStart);
  ASSERT_EQ(a.size(), 1u) << "the child is not on the schedule of first turns";
  EXPECT_EQ(a[0].conversation_index, 0u);
  s.returned(a[0].id, a[0].session, kStart + 10 * kMs);
  auto c0 = poll(s, kStart + 40 * kMs);
  ASSERT_EQ(c0.size(), 1u);
  EXPECT_EQ(c0[0].conversation_index, 1u);
  s.returned(c0[0].id, c0[0].session, kStart + 45 * kMs);
  auto c1 = poll(s, kStart + 50 * kMs);
  ASSERT_EQ(c1.size(), 1u);
  EXPECT_EQ(c1[0].intended_ns, kStart + 50 * kMs) << "a child's later turn at its trace time";
  auto p1 = poll(s, kStart + 100 * kMs);
  ASSERT_EQ(p1.size(), 1u);
  s.returned(p1[0].id, p1[0].session, kStart + 110 * kMs);
  EXPECT_TRUE(poll(s, kStart + 250 * kMs).empty());
  s.returned(c1[0].id, c1[0].session, kStart + 260 * kMs);
  auto p2 = poll(s, kStart + 260 * kMs);
  ASSERT_EQ(p2.size(), 1u);
  EXPECT_EQ(p2[0].intended_ns, kStart + 260 * kMs);
  s.returned(p2[0].id, p2[0].session, kStart + 270 * kMs);
  EXPECT_TRUE(s.sending_done());
}

TEST(SchedulerSpawn, RateModeChildTurnsTakeArrivals) {
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 10;
  p.num_sessions = 1;
  auto s = make_family(p, parent_and_child(false));
  EXPECT_TRUE(s.returns_can_unblock());
  auto a = poll(s, kStart + 100 * kMs);
  ASSERT_EQ(a.size(), 1u);
  s.returned(a[0].id, a[0].session, kStart + 110 * kMs);
  auto b = poll(s, kStart + 200 * kMs);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].conversation_index, 1u) << "the child was ready at 140 ms, the parent at 210";
  EXPECT_EQ(b[0].intended_ns, kStart + 200 * kMs);
}

TEST(ConversationSampler, DrawsOnlyFromTheGivenIndices) {
  ConversationSampler seq(SamplingStrategy::kSequential, std::vector<std::size_t>{0, 2, 5},
                          std::mt19937_64(1));
  EXPECT_EQ(seq.next(), 0u);
  EXPECT_EQ(seq.next(), 2u);
  EXPECT_EQ(seq.next(), 5u);
  EXPECT_EQ(seq.next(), 0u);
  for (auto strategy : {SamplingStrategy::kRandom, SamplingStrategy::kShuffle}) {
    ConversationSampler s(strategy, std::vector<std::size_t>{1, 3}, std::mt19937_64(9));
    for (int i = 0; i < 50; ++i) {
      const auto n = s.next();
      EXPECT_TRUE(n == 1u || n == 3u);
    }
  }
}

}  // namespace
}  // namespace inferperf::timing
