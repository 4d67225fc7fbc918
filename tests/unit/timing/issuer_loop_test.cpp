// The issuer thread on the real clock: precise absolute deadlines, returns fed back from another
// thread, stop. Bounds are loose: these check behaviour, the benchmark measures precision.
#include "timing/issuer_loop.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
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

// One finished request's credit back to the loop.
void give_back(IssuerLoop& loop, const Credit& c) {
  const ReturnedCredit r{c.id, c.session};
  loop.credits_returned(std::span(&r, 1));
}

// A closed loop of `concurrency` over three one-turn conversations, `count` requests.
Scheduler closed_loop(int concurrency, std::int64_t count, core::MonoNs start) {
  PhasePlan p;
  p.concurrency = concurrency;
  p.request_count = count;
  return Scheduler(p, std::vector<SessionShape>(3),
                   ConversationSampler(SamplingStrategy::kShuffle, 3, std::mt19937_64(1)),
                   std::mt19937_64(2), std::mt19937_64(3), start);
}

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
  for (const auto& [c, at] : sink.got) give_back(loop, c);
  EXPECT_TRUE(loop.wait_all_returned(std::nullopt));
}

TEST(IssuerLoop, ReturnsFromAnotherThreadRefillTheClosedLoop) {
  core::SteadyClock clock;
  PreciseWaiter waiter;
  Scheduler s = closed_loop(4, 200, clock.now_ns());
  struct EchoSink final : CreditSink {
    IssuerLoop* loop = nullptr;
    std::vector<std::thread> threads;
    std::mutex mu;
    void dispatch(Credit c) override {
      std::lock_guard lock(mu);
      threads.emplace_back([this, c] { give_back(*loop, c); });
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

// A worker that hands back what finished in batches, from its own thread (Worker::flush_returns):
// every batch is one call and at most one wake-up, and none is lost, so the closed loop runs to
// its count; the loop is destroyed right after the last return (its destructor waits for a wake-up
// still going out).
TEST(IssuerLoop, BatchedReturnsFromAWorkerThreadRefillTheClosedLoop) {
  core::SteadyClock clock;
  PreciseWaiter waiter;
  Scheduler s = closed_loop(8, 500, clock.now_ns());
  struct QueueSink final : CreditSink {
    std::mutex mu;
    std::vector<ReturnedCredit> pending;
    void dispatch(Credit c) override {
      std::lock_guard lock(mu);
      pending.push_back({c.id, c.session});
    }
  } sink;
  std::size_t batches = 0, largest = 0;
  {
    IssuerLoop loop(clock, waiter, s, sink);
    std::atomic<bool> done{false};
    std::thread worker([&] {
      std::vector<ReturnedCredit> batch;
      while (!done.load()) {
        {
          std::lock_guard lock(sink.mu);
          batch.swap(sink.pending);
        }
        if (batch.empty()) {
          std::this_thread::yield();
          continue;
        }
        loop.credits_returned(batch);
        ++batches;
        largest = std::max(largest, batch.size());
        batch.clear();
      }
    });
    std::thread t([&] { loop.run(); });
    t.join();
    EXPECT_TRUE(loop.wait_all_returned(clock.now_ns() + 5'000'000'000));
    done.store(true);
    worker.join();
    EXPECT_EQ(loop.issued(), 500);
    EXPECT_EQ(loop.returned(), 500);
  }
  EXPECT_GE(batches, 500u / 8);
  EXPECT_LE(largest, 8u);  // never more in flight than the concurrency
}

// What was dispatched, from which thread, when.
struct ThreadSink final : CreditSink {
  struct Sent {
    Credit credit;
    std::thread::id thread;
    core::MonoNs at;
  };
  std::mutex mu;
  std::vector<Sent> got;
  void dispatch(Credit c) override {
    std::lock_guard lock(mu);
    got.push_back({std::move(c), std::this_thread::get_id(), core::SteadyClock::steady_now_ns()});
  }
};

// A waiter that counts the wake-ups sent to the issuer.
struct CountingWaiter final : Waiter {
  PreciseWaiter inner;
  std::atomic<int> notified{0};
  void wait_until(std::optional<core::MonoNs> deadline) override { inner.wait_until(deadline); }
  void notify() override {
    ++notified;
    inner.notify();
  }
};

// Returns reported while the issuer sleeps are fed to the scheduler on the reporting thread: the
// closed loop's next credits are dispatched from that thread, and the issuer is woken only to end
// the run. A session's next turn after a delay still goes out on time: the issuer is woken for
// the earlier deadline.
TEST(IssuerLoop, ClosedLoopReturnsIssueOnTheReturningThread) {
  core::SteadyClock clock;
  CountingWaiter waiter;
  Scheduler s = closed_loop(2, 40, clock.now_ns());
  ThreadSink sink;
  IssuerLoop loop(clock, waiter, s, sink);
  std::thread t([&] { loop.run(); });
  auto wait_for = [&](std::size_t n) {
    for (int i = 0; i < 5000; ++i) {
      {
        std::lock_guard lock(sink.mu);
        if (sink.got.size() >= n) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  };
  // The first two from the issuer, which then goes to sleep with no deadline.
  ASSERT_TRUE(wait_for(2));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const int wakes_before = waiter.notified.load();
  for (std::size_t n = 0; n < 38; ++n) {
    Credit c;
    {
      std::lock_guard lock(sink.mu);
      c = sink.got[n].credit;
    }
    give_back(loop, c);
    ASSERT_TRUE(wait_for(n + 3)) << "return " << n << " released no credit";
  }
  std::size_t inline_sent = 0;
  {
    std::lock_guard lock(sink.mu);
    ASSERT_EQ(sink.got.size(), 40u);
    for (std::size_t i = 2; i < sink.got.size(); ++i)
      inline_sent += sink.got[i].thread == std::this_thread::get_id();
    EXPECT_EQ(sink.got[0].thread, t.get_id()) << "the first ones from the issuer";
  }
  // The issuer sleeps with no deadline between returns: each return finds it asleep (one may
  // still find it finishing its first poll on a loaded machine, and go through its queue).
  EXPECT_GE(inline_sent, 37u);
  EXPECT_LE(waiter.notified.load(), wakes_before + 1) << "no wake-up per return";
  std::vector<Credit> last;
  {
    std::lock_guard lock(sink.mu);
    for (std::size_t i = 38; i < 40; ++i) last.push_back(sink.got[i].credit);
  }
  for (const Credit& c : last) give_back(loop, c);
  t.join();  // the last return ended the schedule and woke the issuer to finish
  EXPECT_EQ(loop.issued(), 40);
  EXPECT_TRUE(loop.wait_all_returned(std::nullopt));
  EXPECT_EQ(loop.returned(), 40);
}

// A waiter the test opens by hand: the issuer stays asleep until release().
struct ManualWaiter final : Waiter {
  std::mutex mu;
  std::condition_variable cv;
  int entered = 0, releases = 0;
  std::atomic<int> notified{0};
  void wait_until(std::optional<core::MonoNs>) override {
    std::unique_lock lock(mu);
    ++entered;
    cv.notify_all();
    cv.wait(lock, [&] { return releases > 0; });
    --releases;
  }
  void notify() override { ++notified; }
  void release() {
    std::lock_guard lock(mu);
    ++releases;
    cv.notify_all();
  }
  // Until the issuer has gone to sleep `n` times.
  bool wait_entered(int n) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(10), [&] { return entered >= n; });
  }
};

// An event queued before a return (here a lower session limit) is applied first: the return goes
// through the issuer's queue, not inline, so the limit decides what it releases.
TEST(IssuerLoop, AReturnAfterAQueuedEventWaitsForTheIssuer) {
  core::SteadyClock clock;
  ManualWaiter waiter;
  Scheduler s = closed_loop(2, 100, clock.now_ns());
  ThreadSink sink;
  IssuerLoop loop(clock, waiter, s, sink);
  std::thread t([&] { loop.run(); });
  ASSERT_TRUE(waiter.wait_entered(1));
  auto sent = [&] {
    std::lock_guard lock(sink.mu);
    return sink.got.size();
  };
  auto credit = [&](std::size_t i) {
    std::lock_guard lock(sink.mu);
    return sink.got[i].credit;
  };
  ASSERT_EQ(sent(), 2u);
  loop.set_session_limit(1);
  give_back(loop, credit(0));
  EXPECT_EQ(sent(), 2u) << "not sent inline, ahead of the limit";
  waiter.release();
  ASSERT_TRUE(waiter.wait_entered(2));
  EXPECT_EQ(sent(), 2u) << "the limit came first: one slot, still held by the second credit";
  give_back(loop, credit(1));  // the issuer sleeps, nothing is queued: inline
  ASSERT_EQ(sent(), 3u);
  {
    std::lock_guard lock(sink.mu);
    EXPECT_EQ(sink.got[2].thread, std::this_thread::get_id());
  }
  loop.stop();
  waiter.release();
  t.join();
  EXPECT_EQ(loop.issued(), 3);
}

TEST(IssuerLoop, AnInlineReturnWakesTheIssuerForATurnDelay) {
  core::SteadyClock clock;
  PreciseWaiter waiter;
  PhasePlan p;
  p.concurrency = 1;
  p.num_sessions = 1;
  SessionShape two_turns;
  two_turns.turns = 2;
  two_turns.delay_ms = {0, 30};
  Scheduler s(p, {two_turns},
              ConversationSampler(SamplingStrategy::kSequential, 1, std::mt19937_64(1)),
              std::mt19937_64(2), std::mt19937_64(3), clock.now_ns());
  ThreadSink sink;
  IssuerLoop loop(clock, waiter, s, sink);
  std::thread t([&] { loop.run(); });
  for (int i = 0; i < 5000 &&
                  [&] {
                    std::lock_guard lock(sink.mu);
                    return sink.got.empty();
                  }();
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  Credit first;
  {
    std::lock_guard lock(sink.mu);
    ASSERT_EQ(sink.got.size(), 1u);
    first = sink.got[0].credit;
  }
  const core::MonoNs returned_at = clock.now_ns();
  give_back(loop, first);
  for (int i = 0; i < 5000 &&
                  [&] {
                    std::lock_guard lock(sink.mu);
                    return sink.got.size() < 2;
                  }();
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  Credit second;
  core::MonoNs sent_at = 0;
  {
    std::lock_guard lock(sink.mu);
    ASSERT_EQ(sink.got.size(), 2u);
    second = sink.got[1].credit;
    sent_at = sink.got[1].at;
    EXPECT_EQ(sink.got[1].thread, t.get_id()) << "sent by the issuer, woken for its deadline";
  }
  EXPECT_EQ(second.turn_index, 1);
  EXPECT_GE(sent_at - returned_at, 30'000'000) << "not before its delay";
  EXPECT_LT(sent_at - returned_at, 2'000'000'000) << "the issuer was woken for it";
  EXPECT_EQ(loop.returned(), 1) << "the return was counted";
  give_back(loop, second);
  t.join();
  EXPECT_EQ(loop.issued(), 2);
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

// Notifies before a wait coalesce into one wake-up: that wait returns at once, the next waits for
// its deadline (nothing stale is left pending), and a notify after it wakes the one after.
TEST(PreciseWaiter, NotifiesCoalesceAndNoneIsLeftPending) {
  PreciseWaiter w;
  for (int i = 0; i < 3; ++i) w.notify();
  const core::MonoNs t0 = core::SteadyClock::steady_now_ns();
  w.wait_until(t0 + 2'000'000'000);
  EXPECT_LT(core::SteadyClock::steady_now_ns() - t0, 1'000'000'000);
  const core::MonoNs deadline = core::SteadyClock::steady_now_ns() + 20'000'000;
  w.wait_until(deadline);
  EXPECT_GE(core::SteadyClock::steady_now_ns(), deadline);
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    w.notify();
  });
  const core::MonoNs t1 = core::SteadyClock::steady_now_ns();
  w.wait_until(std::nullopt);  // only the notify ends it
  EXPECT_GE(core::SteadyClock::steady_now_ns() - t1, 10'000'000);
  later.join();
}

// The timer is re-armed only when the deadline moves: a wait woken early by a notify and the wait
// after it on the same deadline still ends at that deadline, and a later deadline is kept after the
// timer fired for an earlier one.
TEST(PreciseWaiter, AnUnmovedDeadlineStillEndsTheWaitAfterAnEarlyWake) {
  PreciseWaiter w;
  const core::MonoNs deadline = core::SteadyClock::steady_now_ns() + 200'000'000;
  std::thread early([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    w.notify();
  });
  w.wait_until(deadline);
  early.join();
  EXPECT_LT(core::SteadyClock::steady_now_ns(), deadline);  // the notify ended it
  w.wait_until(deadline);
  EXPECT_GE(core::SteadyClock::steady_now_ns(), deadline);
  EXPECT_LT(core::SteadyClock::steady_now_ns() - deadline, 500'000'000);
  const core::MonoNs next = core::SteadyClock::steady_now_ns() + 30'000'000;
  w.wait_until(next);
  EXPECT_GE(core::SteadyClock::steady_now_ns(), next);
}

}  // namespace
}  // namespace inferperf::timing
