// Credits held on a worker's loop until their intended time: sent in intended-time order, never
// early, stamped when let go; a shut gate gives back what is not yet due, and nothing is sent
// after.
#include "worker/held_credits.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "timing/waiter.hpp"

namespace inferperf::worker {
namespace {

namespace asio = boost::asio;
constexpr core::MonoNs kHeldMs = 1'000'000;

struct Listener final : timing::WithdrawListener {
  std::mutex mu;
  std::vector<std::int64_t> back;
  void credit_withdrawn(const timing::Credit& c) override {
    std::lock_guard lock(mu);
    back.push_back(c.id);
  }
};

// A worker-like loop on its own thread, with the gate and what was released or withdrawn.
struct HeldFixture {
  core::SteadyClock clock;
  asio::io_context io{1};
  AheadGate gate;
  std::vector<std::pair<timing::Credit, core::MonoNs>> released;  // loop thread only
  int withdrawn = 0;                                              // loop thread only
  HeldCredits held{
      io, clock, gate,
      [this](timing::Credit c) { released.emplace_back(std::move(c), clock.now_ns()); },
      [this] { ++withdrawn; }};
  asio::executor_work_guard<asio::io_context::executor_type> guard{io.get_executor()};
  std::thread thread{[this] { io.run(); }};

  timing::Credit credit(std::int64_t id, core::MonoNs intended) {
    timing::Credit c;
    c.id = id;
    c.intended_ns = intended;
    c.issued_ns = clock.now_ns();
    return c;
  }
  void hold(timing::Credit c, Listener& l) {
    gate.held.fetch_add(1);
    asio::post(io, [this, c = std::move(c), &l]() mutable { held.hold(std::move(c), l); });
  }
  // Runs `f` on the loop and waits for it.
  template <class F>
  void on_loop(F f) {
    std::promise<void> done;
    asio::post(io, [&] {
      f();
      done.set_value();
    });
    done.get_future().wait();
  }
  ~HeldFixture() {
    guard.reset();
    io.stop();
    thread.join();
  }
};

TEST(HeldCredits, SendsEachAtItsIntendedTimeInIntendedOrder) {
  HeldFixture f;
  Listener l;
  // Handed over out of order, and one already due; all on the loop at once, so a test thread
  // descheduled between two posts cannot let one go before a later-handed earlier one arrives.
  f.on_loop([&] {
    const core::MonoNs base = f.clock.now_ns() + 200 * kHeldMs;
    const std::pair<std::int64_t, core::MonoNs> handed[] = {
        {2, base + 3 * kHeldMs},
        {0, base + 1 * kHeldMs},
        {3, base + 3 * kHeldMs},  // same time: after the one held first
        {1, base + 2 * kHeldMs},
        {9, f.clock.now_ns() - kHeldMs}};
    for (const auto& [id, at] : handed) {
      f.gate.held.fetch_add(1);
      f.held.hold(f.credit(id, at), l);
    }
  });
  const core::MonoNs deadline = f.clock.now_ns() + 5'000 * kHeldMs;
  for (;;) {
    std::size_t n = 0;
    f.on_loop([&] { n = f.released.size(); });
    if (n == 5 || f.clock.now_ns() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::vector<std::int64_t> order;
  f.on_loop([&] {
    for (const auto& [c, at] : f.released) {
      order.push_back(c.id);
      EXPECT_GE(at, c.intended_ns) << "credit " << c.id << " sent early";
      EXPECT_GE(c.issued_ns, c.intended_ns) << "issued_ns is the release";
      EXPECT_LE(c.issued_ns, at);
    }
    EXPECT_EQ(f.held.size(), 0u);
  });
  EXPECT_EQ(f.gate.held.load(), 0);
  EXPECT_EQ(order, (std::vector<std::int64_t>{9, 0, 1, 2, 3}));
  EXPECT_TRUE(l.back.empty());
}

// A handler that keeps the loop busy past a credit's time (a batch of completions) lets it go
// when it checks, not when the timer's handler gets its turn after it; a check well before the
// credit is due sends nothing.
TEST(HeldCredits, ACheckBetweenHandlersSendsWhatIsDue) {
  HeldFixture f;
  Listener l;
  std::size_t before = 9;
  std::size_t after = 9;
  core::MonoNs due = 0;
  f.on_loop([&] {
    due = f.clock.now_ns() + 20 * kHeldMs;
    f.gate.held.fetch_add(1);
    f.held.hold(f.credit(1, due), l);
    f.held.release_if_due();
    // A loop stalled past the credit's time before this line (a loaded machine) sent it at once.
    before = f.clock.now_ns() < due - timing::PreciseWaiter::kSpinNs ? f.released.size() : 0;
    while (f.clock.now_ns() < due + kHeldMs) {
    }
    f.held.release_if_due();
    after = f.released.size();
  });
  EXPECT_EQ(before, 0u);
  EXPECT_EQ(after, 1u);
  f.on_loop([&] {
    EXPECT_EQ(f.held.size(), 0u);
    ASSERT_EQ(f.released.size(), 1u);
    EXPECT_GE(f.released[0].second, due);
  });
  EXPECT_EQ(f.gate.held.load(), 0);
}

// A credit whose request completes at once (a body that cannot be built) checks again from inside
// the release: the check returns (no recursion as deep as the credits held), and the release loop
// sends every due credit once, in order.
TEST(HeldCredits, ACheckFromInsideAReleaseSendsEachOnce) {
  HeldFixture f;
  Listener l;
  std::vector<std::int64_t> sent;
  int depth = 0;
  int max_depth = 0;  // releases on the stack at once: 1 when the check does not re-enter
  std::unique_ptr<HeldCredits> held;
  f.on_loop([&] {
    held = std::make_unique<HeldCredits>(
        f.io, f.clock, f.gate,
        [&](timing::Credit c) {
          sent.push_back(c.id);
          max_depth = std::max(max_depth, ++depth);
          held->release_if_due();  // as Worker::complete would, from the launched request
          --depth;
        },
        [] {});
    // Held before they are due, then all due at once (the loop busy past them).
    const core::MonoNs due = f.clock.now_ns() + 20 * kHeldMs;
    for (std::int64_t id = 0; id < 4; ++id) {
      f.gate.held.fetch_add(1);
      held->hold(f.credit(id, due + id), l);
    }
    while (f.clock.now_ns() < due + kHeldMs) {
    }
    held->release_if_due();
  });
  f.on_loop([&] {
    EXPECT_EQ(sent, (std::vector<std::int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(max_depth, 1);
    EXPECT_EQ(held->size(), 0u);
    held.reset();
  });
  EXPECT_EQ(f.gate.held.load(), 0);
}

TEST(HeldCredits, AShutGateGivesBackWhatIsNotDueAndSendsNothingMore) {
  HeldFixture f;
  Listener l;
  const core::MonoNs later = f.clock.now_ns() + 60'000 * kHeldMs;
  f.hold(f.credit(0, f.clock.now_ns() - kHeldMs), l);  // due: sent
  f.hold(f.credit(1, later), l);
  f.hold(f.credit(2, later + kHeldMs), l);
  f.on_loop([&] { EXPECT_EQ(f.held.size(), 2u); });
  EXPECT_EQ(f.gate.held.load(), 2);
  // An open gate keeps them.
  f.on_loop([&] { f.held.withdraw_if_shut(); });
  f.on_loop([&] { EXPECT_EQ(f.held.size(), 2u); });
  f.gate.shut(f.clock.now_ns());
  f.on_loop([&] { f.held.withdraw_if_shut(); });
  // Handed over after the stop: given back at once.
  f.hold(f.credit(3, later), l);
  f.on_loop([&] {
    EXPECT_EQ(f.held.size(), 0u);
    EXPECT_EQ(f.withdrawn, 3);
    ASSERT_EQ(f.released.size(), 1u);
    EXPECT_EQ(f.released[0].first.id, 0);
  });
  EXPECT_EQ(f.gate.held.load(), 0);
  std::lock_guard lock(l.mu);
  EXPECT_EQ(l.back, (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(HeldCredits, OneIntendedBeforeTheStopStillGoesWhenItsTimerIsLate) {
  // Two workers share the gate: the one timing credit 0 may fire after the stop while the other
  // already sent credit 1. A stop at `shut` sends what was intended before it and gives back the
  // rest, so the sent credits stay a prefix of the arrival sequence. A stop time after credit 0's
  // intended time stands for the late timer here. All on the loop at once: nothing is due yet.
  HeldFixture f;
  Listener l;
  core::MonoNs due = 0;
  f.on_loop([&] {
    due = f.clock.now_ns() + 100 * kHeldMs;
    f.gate.held.fetch_add(2);
    f.held.hold(f.credit(0, due), l);
    f.held.hold(f.credit(1, due + 60'000 * kHeldMs), l);
    f.gate.shut(due + kHeldMs);
    f.held.withdraw_if_shut();
    EXPECT_EQ(f.held.size(), 1u) << "the credit intended after the stop is given back at once";
    EXPECT_EQ(f.withdrawn, 1);
  });
  const core::MonoNs deadline = f.clock.now_ns() + 5'000 * kHeldMs;
  std::size_t n = 0;
  while (n == 0 && f.clock.now_ns() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    f.on_loop([&] { n = f.released.size(); });
  }
  f.on_loop([&] {
    ASSERT_EQ(f.released.size(), 1u);
    EXPECT_EQ(f.released[0].first.id, 0);
    EXPECT_GE(f.released[0].second, due) << "still never early";
    EXPECT_EQ(f.held.size(), 0u);
  });
  EXPECT_EQ(f.gate.held.load(), 0);
  std::lock_guard lock(l.mu);
  EXPECT_EQ(l.back, (std::vector<std::int64_t>{1}));
}

TEST(HeldCredits, TheEarliestStopWinsAndEverythingTakesBackWhatIsDue) {
  AheadGate gate;
  EXPECT_EQ(gate.shut_at.load(), AheadGate::kOpen);
  gate.shut(2'000);
  gate.shut(5'000);  // a second stop (the failure threshold, another signal) is later: ignored
  EXPECT_EQ(gate.shut_at.load(), 2'000);
  gate.shut(1'000);
  EXPECT_EQ(gate.shut_at.load(), 1'000);
  gate.open();
  EXPECT_EQ(gate.shut_at.load(), AheadGate::kOpen);

  // A grace period over: even a credit already due is given back, never sent.
  HeldFixture f;
  Listener l;
  f.on_loop([&] {
    f.gate.held.fetch_add(2);
    f.held.hold(f.credit(0, f.clock.now_ns() + 60'000 * kHeldMs), l);
    f.held.hold(f.credit(1, f.clock.now_ns() + 60'000 * kHeldMs), l);
    f.gate.shut(AheadGate::kEverything);
    f.held.withdraw_if_shut();
    EXPECT_EQ(f.held.size(), 0u);
    EXPECT_EQ(f.withdrawn, 2);
    EXPECT_TRUE(f.released.empty());
    // Handed over after it: given back at once, due or not.
    f.gate.held.fetch_add(1);
    f.held.hold(f.credit(2, f.clock.now_ns() - kHeldMs), l);
    EXPECT_EQ(f.withdrawn, 3);
    EXPECT_TRUE(f.released.empty());
  });
  EXPECT_EQ(f.gate.held.load(), 0);
}

}  // namespace
}  // namespace inferperf::worker
