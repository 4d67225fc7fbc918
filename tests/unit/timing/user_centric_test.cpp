// User-centric rate: the virtual history at t = 0 and the per-user pacing, with made-up times.
#include "timing/user_centric.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "scheduler_fixture.hpp"
#include "timing/scheduler.hpp"

namespace inferperf::timing {
namespace {

using fixture::kStart;
constexpr core::MonoNs kSec = 1'000'000'000;

TEST(UserCentricHistory, FifteenUsersTwentyTurnsStartInSteadyState) {
  // 15 users, 20-turn sessions: user 1 finished just before t = 0 and is replaced by a new user
  // firing first; the others fire one per stagger slot with 2..18 turns left.
  const auto users = initial_users(15, 20);
  ASSERT_EQ(users.size(), 15u);
  const std::vector<std::pair<int, int>> expected = {{4, 2},   {8, 3},  {12, 4}, {1, 6},   {5, 7},
                                                     {9, 8},   {13, 9}, {2, 11}, {6, 12},  {10, 13},
                                                     {14, 14}, {3, 16}, {7, 17}, {11, 18}, {0, 0}};
  for (std::size_t i = 0; i < users.size(); ++i) {
    EXPECT_EQ(users[i].order, expected[i].first) << "user " << i + 2;
    EXPECT_EQ(users[i].turns, expected[i].second) << "user " << i + 2;
  }
}

TEST(UserCentricHistory, SharedFactorsStillGiveEveryUserItsOwnSlot) {
  for (int n : {2, 4, 6, 10, 12, 30}) {
    for (int turns : {2, 3, 5, 7, 11}) {
      const auto users = initial_users(n, turns);
      std::set<int> orders;
      for (const auto& u : users) {
        EXPECT_TRUE(orders.insert(u.order).second) << n << " users, " << turns << " turns";
        EXPECT_GE(u.order, 0);
        EXPECT_LE(u.order, n);
        EXPECT_LT(u.turns, std::max(2, turns));
      }
      EXPECT_EQ(users.back().order, 0);
      EXPECT_EQ(users.back().turns, 0) << "the new user sends every turn";
    }
  }
}

Scheduler make_user_centric(int users, double qps, int turns, std::size_t conversations,
                            std::optional<std::int64_t> count = std::nullopt) {
  PhasePlan p;
  p.num_users = users;
  p.rate = qps;
  p.request_count = count;
  p.url_count = 2;
  std::vector<SessionShape> shapes(conversations);
  for (auto& s : shapes) {
    s.turns = turns;
    s.delay_ms.assign(static_cast<std::size_t>(turns), 60'000.0);  // ignored in this mode
  }
  return Scheduler(
      p, shapes,
      ConversationSampler(SamplingStrategy::kSequential, conversations, std::mt19937_64(1)),
      std::mt19937_64(2), std::mt19937_64(3), kStart);
}

TEST(SchedulerUserCentric, FirstTurnsFollowTheStaggerOrder) {
  // 3 users, 4 turns, 1 QPS: turn gap 3 s; lifetime 3 gaps, users aged 3, 2, 1 gaps.
  auto s = make_user_centric(3, 1.0, 4, 10);
  std::vector<Credit> out;
  s.poll(kStart, out);
  ASSERT_EQ(out.size(), 1u) << "only the new user fires at t = 0";
  EXPECT_EQ(out[0].num_turns, 4);
  EXPECT_EQ(out[0].intended_ns, kStart);
  EXPECT_EQ(s.next_wakeup(), kStart + kSec);
  std::vector<Credit> later;
  for (int t = 1; t <= 3; ++t) s.poll(kStart + t * kSec, later);
  ASSERT_EQ(later.size(), 2u);
  for (const auto& c : later) {
    EXPECT_EQ(c.turn_index, 0);
    EXPECT_LT(c.num_turns, 4) << "virtual history: part of the session happened before t = 0";
    EXPECT_EQ((c.intended_ns - kStart) % kSec, 0);
  }
}

TEST(SchedulerUserCentric, TurnsAreOneGapApartAndNeverBeforeTheReturn) {
  auto s = make_user_centric(2, 2.0, 3, 10);  // turn gap 1 s
  std::vector<Credit> out;
  s.poll(kStart, out);
  ASSERT_EQ(out.size(), 1u);
  const Credit first = out[0];
  // A fast reply: the next turn waits for the gap, not the 60 s dataset delay.
  s.returned(first.id, first.session, kStart + kSec / 10);
  EXPECT_EQ(s.next_wakeup(), kStart + kSec / 2) << "the other user's first turn";
  out.clear();
  s.poll(kStart + kSec / 2, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].session, first.session);
  EXPECT_EQ(s.next_wakeup(), kStart + kSec);
  out.clear();
  s.poll(kStart + kSec, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].session, first.session);
  EXPECT_EQ(out[0].turn_index, 1);
  EXPECT_EQ(out[0].intended_ns, kStart + kSec);
  // A slow reply (2.5 s): the next turn goes out at the return, and the gap counts from there.
  const Credit second = out[0];
  s.returned(second.id, second.session, kStart + 3 * kSec + kSec / 2);
  out.clear();
  s.poll(kStart + 3 * kSec + kSec / 2, out);
  std::vector<Credit> mine;
  for (const auto& c : out) {
    if (c.session == first.session) mine.push_back(c);
  }
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].turn_index, 2);
  EXPECT_EQ(mine[0].intended_ns, kStart + 3 * kSec + kSec / 2);
}

TEST(SchedulerUserCentric, ANewUserArrivesWhenTheLastTurnOfItsPredecessorIsDue) {
  // 1 user, 3 turns, 1 QPS: gap 1 s. The initial user sends turns at 0, 1, 2 s; its
  // replacement arrives at 3 s whatever the replies did.
  auto s = make_user_centric(1, 1.0, 3, 10, 6);
  std::map<std::int64_t, std::vector<core::MonoNs>> by_session;
  std::vector<Credit> out;
  for (core::MonoNs t = kStart; t <= kStart + 6 * kSec; t += kSec / 4) {
    out.clear();
    s.poll(t, out);
    for (const auto& c : out) {
      by_session[c.session].push_back(c.intended_ns);
      s.returned(c.id, c.session, t);  // instant replies
    }
  }
  ASSERT_EQ(by_session.size(), 2u);
  EXPECT_EQ(by_session[0], (std::vector<core::MonoNs>{kStart, kStart + kSec, kStart + 2 * kSec}));
  EXPECT_EQ(by_session[1],
            (std::vector<core::MonoNs>{kStart + 3 * kSec, kStart + 4 * kSec, kStart + 5 * kSec}));
  EXPECT_TRUE(s.sending_done()) << "6 requests sent";
}

TEST(SchedulerUserCentric, SessionsTakeTheUrlsRoundRobin) {
  auto s = make_user_centric(4, 100.0, 3, 10);
  std::vector<Credit> out;
  for (core::MonoNs t = kStart; t <= kStart + kSec; t += kSec / 100) s.poll(t, out);
  ASSERT_GE(out.size(), 4u);
  for (const auto& c : out) EXPECT_EQ(c.url_index, static_cast<int>(c.session % 2));
}

}  // namespace
}  // namespace inferperf::timing
