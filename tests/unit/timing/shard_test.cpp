// Sharding: the shares of counts and slots, the session hash, and the property everything rests
// on: the union of the shards' rate schedules is exactly the one-process schedule.
#include "timing/shard.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "scheduler_fixture.hpp"
#include "timing/scheduler.hpp"

namespace inferperf::timing {
namespace {

using fixture::kStart;

TEST(ShardShare, SplitsAsEvenlyAsPossibleAndSumsToTheTotal) {
  EXPECT_EQ(even_share(10, 0, 3), 4);
  EXPECT_EQ(even_share(10, 1, 3), 3);
  EXPECT_EQ(even_share(10, 2, 3), 3);
  EXPECT_EQ(even_share(2, 2, 3), 0);
  EXPECT_EQ(even_share(7, 0, 1), 7);
  for (int n = 1; n <= 7; ++n) {
    std::int64_t sum = 0;
    for (int i = 0; i < n; ++i) sum += even_share(1001, i, n);
    EXPECT_EQ(sum, 1001) << n << " shards";
  }
}

TEST(ShardOfSession, IsStableAndSpreadsIds) {
  // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c; of "" the offset basis.
  EXPECT_EQ(shard_of("a", 1000), static_cast<int>(0xaf63dc4c8601ec8cULL % 1000));
  EXPECT_EQ(shard_of("", 7), static_cast<int>(14695981039346656037ULL % 7));
  EXPECT_EQ(shard_of("anything", 1), 0);
  std::map<int, int> counts;
  for (int i = 0; i < 3000; ++i) ++counts[shard_of("session-" + std::to_string(i), 3)];
  ASSERT_EQ(counts.size(), 3u);
  for (const auto& [shard, n] : counts) EXPECT_NEAR(n, 1000, 100) << "shard " << shard;
}

PhasePlan sharded(PhasePlan p, int index, int count) {
  p.shard = {index, count};
  p.shard_seed = 42;
  return p;
}

TEST(ShardPlan, SplitsClosedLoopCountsAndSlots) {
  PhasePlan p;
  p.concurrency = 10;
  p.prefill_concurrency = 4;
  p.request_count = 100;
  std::int64_t conc = 0, requests = 0, prefill = 0;
  for (int i = 0; i < 3; ++i) {
    auto s = shard_plan(sharded(p, i, 3));
    ASSERT_TRUE(s) << s.error().message;
    conc += *s->concurrency;
    prefill += *s->prefill_concurrency;
    requests += *s->request_count;
  }
  EXPECT_EQ(conc, 10);
  EXPECT_EQ(prefill, 4);
  EXPECT_EQ(requests, 100);
  auto unsplit = shard_plan(p);
  ASSERT_TRUE(unsplit);
  EXPECT_EQ(*unsplit->concurrency, 10) << "one shard: the plan as given";
}

TEST(ShardPlan, RefusesAShareOfZeroNamingTheFlag) {
  PhasePlan p;
  p.concurrency = 2;
  p.request_count = 10;
  auto s = shard_plan(sharded(p, 2, 3));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "--concurrency 2 cannot be split over 3 shards: each shard needs at least one");
  p.phase = records::Phase::kWarmup;
  auto w = shard_plan(sharded(p, 2, 3));
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("--warmup-concurrency 2"), std::string::npos);
  PhasePlan rate;
  rate.pattern = ArrivalPattern::kConstant;
  rate.rate = 10;
  rate.request_count = 2;
  auto r = shard_plan(sharded(rate, 0, 3));
  ASSERT_FALSE(r) << "2 arrivals leave one of 3 shards without any";
  EXPECT_EQ(r.error().message,
            "--request-count 2 cannot be split over 3 shards: each shard needs at least one");
  rate.request_count = 3;
  EXPECT_TRUE(shard_plan(sharded(rate, 2, 3)));
}

TEST(ShardPlan, UserCentricKeepsEachUsersGapAndInterleavesTheShards) {
  PhasePlan p;
  p.num_users = 10;
  p.rate = 5.0;  // a user's turns are 10 / 5 = 2 s apart
  p.request_count = 40;
  for (int i = 0; i < 3; ++i) {
    auto s = shard_plan(sharded(p, i, 3));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->num_users, i == 0 ? 4 : 3);
    EXPECT_DOUBLE_EQ(s->num_users / s->rate, 2.0) << "the per-user turn gap is kept";
    EXPECT_DOUBLE_EQ(s->start_offset_s, i / 5.0);
  }
}

// Every arrival time of a rate schedule, polled at exact times until `count` are sent.
std::vector<core::MonoNs> arrivals(const PhasePlan& plan, std::size_t shapes) {
  Scheduler s(plan, std::vector<SessionShape>(shapes),
              ConversationSampler(SamplingStrategy::kSequential, shapes, std::mt19937_64(1)),
              std::mt19937_64(2), std::mt19937_64(3), kStart);
  std::vector<core::MonoNs> out;
  std::vector<Credit> credits;
  while (!s.sending_done()) {
    const auto at = s.next_wakeup();
    if (!at) break;
    credits.clear();
    s.poll(*at, credits);
    for (const auto& c : credits) {
      out.push_back(c.intended_ns);
      s.returned(c.id, c.session, *at);  // instant replies: no slot limits in play
    }
  }
  return out;
}

void expect_union_is_one_process(ArrivalPattern pattern) {
  PhasePlan p;
  p.pattern = pattern;
  p.rate = 200.0;
  p.smoothness = 0.5;
  p.request_count = 301;
  const auto whole = arrivals(p, 50);
  ASSERT_EQ(whole.size(), 301u);
  std::vector<core::MonoNs> joined;
  std::vector<std::size_t> sizes;
  for (int i = 0; i < 3; ++i) {
    auto plan = shard_plan(sharded(p, i, 3));
    ASSERT_TRUE(plan);
    const auto part = arrivals(*plan, 50);
    sizes.push_back(part.size());
    joined.insert(joined.end(), part.begin(), part.end());
  }
  std::sort(joined.begin(), joined.end());
  EXPECT_EQ(joined, whole) << "the shards' arrivals are the one-process schedule, no more no less";
  if (pattern == ArrivalPattern::kConstant) {
    EXPECT_EQ(sizes, (std::vector<std::size_t>{101, 100, 100}));
  } else {
    for (auto n : sizes) EXPECT_NEAR(static_cast<double>(n), 100.0, 30.0) << "thinned to R/N";
  }
}

TEST(ShardArrivals, ConstantRateShardsAreStaggeredAndTogetherAreOneSchedule) {
  expect_union_is_one_process(ArrivalPattern::kConstant);
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 100.0;  // 10 ms apart
  p.request_count = 9;
  auto shard1 = shard_plan(sharded(p, 1, 3));
  ASSERT_TRUE(shard1);
  const auto times = arrivals(*shard1, 5);
  // Global arrivals at 10, 20, 30, ... ms; shard 1 of 3 takes the 2nd, 5th and 8th.
  EXPECT_EQ(times, (std::vector<core::MonoNs>{kStart + 20'000'000, kStart + 50'000'000,
                                              kStart + 80'000'000}));
}

TEST(ShardArrivals, PoissonShardsAreAThinningOfOneSchedule) {
  expect_union_is_one_process(ArrivalPattern::kPoisson);
}

TEST(ShardArrivals, GammaShardsAreAThinningOfOneSchedule) {
  expect_union_is_one_process(ArrivalPattern::kGamma);
}

TEST(ShardSessions, ElsewhereSessionsAreNeverSampledOrReplayed) {
  std::vector<SessionShape> shapes(4);
  shapes[1].elsewhere = true;
  shapes[3].elsewhere = true;
  EXPECT_EQ(root_indices(shapes), (std::vector<std::size_t>{0, 2}));
  PhasePlan p;
  p.fixed_schedule = true;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    shapes[i].timestamp_ms = {static_cast<double>(i * 10)};
  Scheduler s(
      p, shapes,
      ConversationSampler(SamplingStrategy::kSequential, root_indices(shapes), std::mt19937_64(1)),
      std::mt19937_64(2), std::mt19937_64(3), kStart);
  std::vector<std::size_t> sent;
  std::vector<Credit> credits;
  for (core::MonoNs t = kStart; t <= kStart + 40'000'000; t += 1'000'000) {
    credits.clear();
    s.poll(t, credits);
    for (const auto& c : credits) {
      sent.push_back(c.conversation_index);
      s.returned(c.id, c.session, t);
    }
  }
  EXPECT_EQ(sent, (std::vector<std::size_t>{0, 2}));
}

}  // namespace
}  // namespace inferperf::timing
