// ConcurrencyIssuer against a fake sink that hands credits back from another thread, and the
// ShuffleSampler. Every wait is bounded so a bug fails the test instead of hanging it.
#include "timing/concurrency_issuer.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <regex>
#include <set>
#include <thread>
#include <vector>

#include "timing/conversation_sampler.hpp"

namespace {

using inferperf::core::SteadyClock;
using inferperf::records::Phase;
using inferperf::timing::ConcurrencyIssuer;
using inferperf::timing::ConcurrencyPlan;
using inferperf::timing::Credit;
using inferperf::timing::CreditSink;
using inferperf::timing::ShuffleSampler;
using namespace std::chrono_literals;

constexpr auto kRunTimeout = 10s;

// Records every credit; a returner thread gives credits back (in shuffled order when several are
// waiting) unless holding is on.
class ReturningSink final : public CreditSink {
 public:
  explicit ReturningSink(bool hold) : hold_(hold) {}
  ~ReturningSink() override { shutdown(); }

  void start(ConcurrencyIssuer* issuer) {
    issuer_ = issuer;
    returner_ = std::thread([this] { loop(); });
  }

  void dispatch(Credit credit) override {
    std::lock_guard lock(mu_);
    const int now_outstanding = ++outstanding_;
    max_outstanding_ = std::max(max_outstanding_, now_outstanding);
    credits_.push_back(credit);
    queue_.push_back(credit.id);
    cv_.notify_all();
  }

  void release_all() {
    std::lock_guard lock(mu_);
    hold_ = false;
    cv_.notify_all();
  }

  void shutdown() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
      hold_ = false;
      cv_.notify_all();
    }
    if (returner_.joinable()) returner_.join();
  }

  std::vector<Credit> credits() const {
    std::lock_guard lock(mu_);
    return credits_;
  }
  int max_outstanding() const {
    std::lock_guard lock(mu_);
    return max_outstanding_;
  }
  int outstanding() const {
    std::lock_guard lock(mu_);
    return outstanding_;
  }

 private:
  void loop() {
    std::mt19937 rng(3);
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return done_ || (!hold_ && !queue_.empty()); });
      if (queue_.empty()) {
        if (done_) return;
        continue;
      }
      // Return a random one of the waiting credits, after a tiny pause.
      const auto pick = static_cast<std::size_t>(rng() % queue_.size());
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(pick));
      --outstanding_;  // before credit_returned, so a new dispatch may follow right away
      lock.unlock();
      if (rng() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 200));
      issuer_->credit_returned();
      lock.lock();
    }
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool hold_;
  bool done_ = false;
  int outstanding_ = 0;
  int max_outstanding_ = 0;
  std::vector<Credit> credits_;
  std::deque<std::int64_t> queue_;
  ConcurrencyIssuer* issuer_ = nullptr;
  std::thread returner_;
};

ShuffleSampler sampler(std::size_t size) {
  return ShuffleSampler(size, std::mt19937_64(11));
}

// Runs issuer.run() on a thread; returns false when it did not end within `timeout`.
bool run_with_timeout(ConcurrencyIssuer& issuer, ReturningSink& sink,
                      std::chrono::milliseconds timeout) {
  auto fut = std::async(std::launch::async, [&] { issuer.run(); });
  if (fut.wait_for(timeout) == std::future_status::ready) return true;
  issuer.stop();  // unblock so the test can end
  sink.release_all();
  fut.wait();
  return false;
}

template <typename Pred>
bool eventually(Pred pred, std::chrono::milliseconds timeout = 5000ms) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(200us);
  }
  return pred();
}

TEST(ConcurrencyIssuer, IssuesExactlyRequestCountWithBoundedConcurrency) {
  SteadyClock clock;
  ReturningSink sink(false);
  ConcurrencyPlan plan;
  plan.concurrency = 4;
  plan.request_count = 300;
  ConcurrencyIssuer issuer(clock, sink, plan, sampler(10));
  sink.start(&issuer);
  ASSERT_TRUE(run_with_timeout(issuer, sink, 10000ms)) << "run() did not finish";
  EXPECT_TRUE(issuer.wait_all_returned(SteadyClock::steady_now_ns() + 5'000'000'000));
  sink.shutdown();

  const auto credits = sink.credits();
  ASSERT_EQ(credits.size(), 300u);
  EXPECT_EQ(issuer.issued(), 300);
  EXPECT_EQ(issuer.returned(), 300);
  EXPECT_LE(sink.max_outstanding(), 4);
  EXPECT_GE(sink.max_outstanding(), 1);
  const std::regex uuid_re("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  std::set<std::string> correlation_ids;
  for (std::size_t i = 0; i < credits.size(); ++i) {
    const Credit& c = credits[i];
    EXPECT_EQ(c.id, static_cast<std::int64_t>(i));
    EXPECT_EQ(c.phase, Phase::kProfiling);
    EXPECT_EQ(c.turn_index, 0);
    EXPECT_LT(c.conversation_index, 10u);
    EXPECT_EQ(c.intended_ns, c.issued_ns);  // closed loop
    EXPECT_GE(c.issued_ns, issuer.phase_start_ns());
    EXPECT_LE(c.issued_ns, issuer.sending_end_ns());
    if (i > 0) {
      EXPECT_GE(c.issued_ns, credits[i - 1].issued_ns);
    }
    EXPECT_TRUE(std::regex_match(c.x_correlation_id, uuid_re)) << c.x_correlation_id;
    correlation_ids.insert(c.x_correlation_id);
  }
  EXPECT_EQ(correlation_ids.size(), 300u);
}

TEST(ConcurrencyIssuer, NeverMoreThanConcurrencyOutstandingAndStopEndsRun) {
  SteadyClock clock;
  ReturningSink sink(true);  // nothing comes back until released
  ConcurrencyPlan plan;
  plan.concurrency = 3;
  plan.request_count = 50;
  plan.phase = Phase::kWarmup;
  ConcurrencyIssuer issuer(clock, sink, plan, sampler(5));
  sink.start(&issuer);
  auto fut = std::async(std::launch::async, [&] { issuer.run(); });
  ASSERT_TRUE(eventually([&] { return issuer.issued() == 3; }));
  std::this_thread::sleep_for(5ms);  // give a wrong implementation the chance to over-issue
  EXPECT_EQ(issuer.issued(), 3);
  EXPECT_EQ(sink.outstanding(), 3);
  EXPECT_NE(fut.wait_for(0ms), std::future_status::ready);  // blocked waiting for a slot
  EXPECT_FALSE(issuer.wait_all_returned(SteadyClock::steady_now_ns() + 2'000'000));

  issuer.stop();
  const bool ended = fut.wait_for(kRunTimeout) == std::future_status::ready;
  sink.release_all();
  if (!ended) fut.wait();
  ASSERT_TRUE(ended) << "stop() did not end run()";
  EXPECT_EQ(issuer.issued(), 3);
  EXPECT_GE(issuer.sending_end_ns(), issuer.phase_start_ns());
  EXPECT_TRUE(issuer.wait_all_returned(SteadyClock::steady_now_ns() + 5'000'000'000));
  sink.shutdown();
  for (const auto& c : sink.credits()) EXPECT_EQ(c.phase, Phase::kWarmup);
}

TEST(ConcurrencyIssuer, EachReturnFreesExactlyOneSlot) {
  SteadyClock clock;
  ReturningSink sink(true);
  ConcurrencyPlan plan;
  plan.concurrency = 2;
  plan.request_count = 10;
  ConcurrencyIssuer issuer(clock, sink, plan, sampler(3));
  // No returner thread: the test returns credits itself.
  auto fut = std::async(std::launch::async, [&] { issuer.run(); });
  ASSERT_TRUE(eventually([&] { return issuer.issued() == 2; }));
  for (int k = 1; k <= 8; ++k) {
    issuer.credit_returned();
    ASSERT_TRUE(eventually([&] { return issuer.issued() == 2 + k; })) << k;
    std::this_thread::sleep_for(1ms);
    EXPECT_EQ(issuer.issued(), 2 + k);
  }
  ASSERT_EQ(fut.wait_for(kRunTimeout), std::future_status::ready);  // count reached
  EXPECT_EQ(issuer.issued(), 10);
  EXPECT_EQ(issuer.returned(), 8);
  issuer.credit_returned();
  issuer.credit_returned();
  EXPECT_TRUE(issuer.wait_all_returned(std::nullopt));
}

TEST(ConcurrencyIssuer, DurationStopsIssuing) {
  SteadyClock clock;
  ReturningSink sink(true);
  ConcurrencyPlan plan;
  plan.concurrency = 2;
  plan.duration_s = 0.03;
  ConcurrencyIssuer issuer(clock, sink, plan, sampler(3));
  sink.start(&issuer);
  ASSERT_TRUE(run_with_timeout(issuer, sink, 10000ms)) << "duration did not end run()";
  EXPECT_EQ(issuer.issued(), 2);
  EXPECT_GE(issuer.sending_end_ns() - issuer.phase_start_ns(), 30'000'000);
  sink.shutdown();
}

TEST(ConcurrencyIssuer, StopBeforeRunIssuesNothing) {
  SteadyClock clock;
  ReturningSink sink(false);
  ConcurrencyPlan plan;
  plan.concurrency = 2;
  plan.request_count = 5;
  ConcurrencyIssuer issuer(clock, sink, plan, sampler(3));
  sink.start(&issuer);
  issuer.stop();
  ASSERT_TRUE(run_with_timeout(issuer, sink, 10000ms));
  EXPECT_EQ(issuer.issued(), 0);
  EXPECT_TRUE(issuer.wait_all_returned(std::nullopt));
  sink.shutdown();
}

TEST(ShuffleSampler, VisitsEveryIndexOncePerCycle) {
  ShuffleSampler s(7, std::mt19937_64(42));
  std::vector<std::size_t> all;
  for (int cycle = 0; cycle < 6; ++cycle) {
    std::set<std::size_t> seen;
    for (int i = 0; i < 7; ++i) {
      const std::size_t v = s.next();
      EXPECT_LT(v, 7u);
      EXPECT_TRUE(seen.insert(v).second) << "index " << v << " repeated in cycle " << cycle;
      all.push_back(v);
    }
    EXPECT_EQ(seen.size(), 7u);
  }
  // Re-shuffled between cycles: six identical permutations of 7 would be a ~1e-18 coincidence
  // for a real shuffle.
  bool any_differs = false;
  for (int cycle = 1; cycle < 6; ++cycle) {
    any_differs |= !std::equal(all.begin(), all.begin() + 7, all.begin() + 7 * cycle);
  }
  EXPECT_TRUE(any_differs);
}

TEST(ShuffleSampler, SameSeedSameOrder) {
  ShuffleSampler a(20, std::mt19937_64(5)), b(20, std::mt19937_64(5));
  std::vector<std::size_t> va, vb;
  for (int i = 0; i < 60; ++i) {
    va.push_back(a.next());
    vb.push_back(b.next());
  }
  EXPECT_EQ(va, vb);
  std::vector<std::size_t> identity(20);
  for (std::size_t i = 0; i < 20; ++i) identity[i] = i;
  EXPECT_NE(std::vector<std::size_t>(va.begin(), va.begin() + 20), identity);  // shuffled
}

TEST(ShuffleSampler, DegenerateSizes) {
  ShuffleSampler empty(0, std::mt19937_64(1));
  EXPECT_EQ(empty.next(), 0u);
  EXPECT_EQ(empty.next(), 0u);
  ShuffleSampler one(1, std::mt19937_64(1));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(one.next(), 0u);
}

}  // namespace
