// The issuer thread on the real clock: precise absolute deadlines, returns fed back from another
// thread, stop. Bounds are loose: these check behaviour, the benchmark measures precision.
#include "timing/issuer_loop.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace inferperf::timing {
namespace {

struct RecordingSink final : CreditSink {
  std::mutex mu;
  std::vector<std::pair<Credit, core::MonoNs>> got;
  void dispatch(Credit c) override {
    std::lock_guard lock(mu);
    got.emplace_back(std::move(c), core::SteadyClock::steady_now_ns());
  }
};

TEST(IssuerLoop, ConstantRateHitsItsDeadlines) {
  core::SteadyClock clock;
  PreciseWaiter waiter;
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 200;
  p.request_count = 40;
  const core::MonoNs start = clock.now_ns();
  Scheduler s(p, std::vector<SessionShape>(2),
              ConversationSampler(SamplingStrategy::kSequential, 2, std::mt19937_64(1)),
              std::mt19937_64(2), std::mt19937_64(3), start);
  RecordingSink sink;
  IssuerLoop loop(clock, waiter, s, sink);
  std::thread t([&] { loop.run(); });
  t.join();
  ASSERT_EQ(sink.got.size(), 40u);
  // On the 5 ms grid; a stall of more than an interval (a loaded machine) restarts the grid later,
  // never earlier. Exact deadlines are the scheduler tests' business.
  EXPECT_EQ(sink.got[0].first.intended_ns, start + 5'000'000);
  for (std::size_t i = 0; i < sink.got.size(); ++i) {
    const auto& [c, at] = sink.got[i];
    EXPECT_GE(at, c.intended_ns) << "never early";
    if (i > 0) {
      EXPECT_GE(c.intended_ns - sink.got[i - 1].first.intended_ns, 5'000'000);
    }
  }
  EXPECT_EQ(loop.issued(), 40);
  EXPECT_FALSE(loop.wait_all_returned(clock.now_ns() + 1'000'000));
  for (const auto& [c, at] : sink.got) loop.credit_returned(c.id, c.session);
  EXPECT_TRUE(loop.wait_all_returned(std::nullopt));
}

TEST(IssuerLoop, ReturnsFromAnotherThreadRefillTheClosedLoop) {
  core::SteadyClock clock;
  PreciseWaiter waiter;
  PhasePlan p;
  p.concurrency = 4;
  p.request_count = 200;
  Scheduler s(p, std::vector<SessionShape>(3),
              ConversationSampler(SamplingStrategy::kShuffle, 3, std::mt19937_64(1)),
              std::mt19937_64(2), std::mt19937_64(3), clock.now_ns());
  struct EchoSink final : CreditSink {
    IssuerLoop* loop = nullptr;
    std::vector<std::thread> threads;
    std::mutex mu;
    void dispatch(Credit c) override {
      std::lock_guard lock(mu);
      threads.emplace_back([this, c] { loop->credit_returned(c.id, c.session); });
    }
  } sink;
  IssuerLoop loop(clock, waiter, s, sink);
  sink.loop = &loop;
  std::thread t([&] { loop.run(); });
  t.join();
  {
    std::lock_guard lock(sink.mu);
    for (auto& th : sink.threads) th.join();
  }
  EXPECT_EQ(loop.issued(), 200);
  EXPECT_TRUE(loop.wait_all_returned(clock.now_ns() + 5'000'000'000));
  EXPECT_EQ(loop.returned(), 200);
}

TEST(IssuerLoop, StopEndsAnEndlessRun) {
  core::SteadyClock clock;
  PreciseWaiter waiter;
  PhasePlan p;
  p.pattern = ArrivalPattern::kConstant;
  p.rate = 50;
  p.duration_s = 3600;
  Scheduler s(p, std::vector<SessionShape>(1),
              ConversationSampler(SamplingStrategy::kSequential, 1, std::mt19937_64(1)),
              std::mt19937_64(2), std::mt19937_64(3), clock.now_ns());
  RecordingSink sink;
  IssuerLoop loop(clock, waiter, s, sink);
  std::thread t([&] { loop.run(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  loop.stop();
  t.join();
  EXPECT_GE(loop.issued(), 2);
  EXPECT_LE(loop.issued(), 10);
}

TEST(PreciseWaiter, NotifyBeforeWaitReturnsAtOnceAndDeadlinesAreNotEarly) {
  PreciseWaiter w;
  w.notify();
  const core::MonoNs t0 = core::SteadyClock::steady_now_ns();
  w.wait_until(t0 + 2'000'000'000);
  EXPECT_LT(core::SteadyClock::steady_now_ns() - t0, 1'000'000'000);
  for (int i = 0; i < 5; ++i) {
    const core::MonoNs deadline = core::SteadyClock::steady_now_ns() + 3'000'000;
    w.wait_until(deadline);
    EXPECT_GE(core::SteadyClock::steady_now_ns(), deadline);
  }
}

}  // namespace
}  // namespace inferperf::timing
