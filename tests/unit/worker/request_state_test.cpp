// The worker's request-state blocks: recycled on its thread, never more than were in use at once.
#include "worker/request_state.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace inferperf::worker {
namespace {

// What a worker holds for its requests' states: its loop, its timeout list and its blocks.
struct WorkerLoop {
  boost::asio::io_context io;
  RequestTimeouts timeouts{io};
  RequestStatePool pool;
};

TEST(RequestStatePool, AReleasedBlockServesTheNextStateAndTheStateIsFresh) {
  WorkerLoop w;
  const RequestState* first = nullptr;
  {
    auto s = w.pool.make(w.timeouts);
    first = s.get();
    s->rec.credit_num = 1;
    s->rec.x_request_id = "left over";
    s->t.reads = 7;
    EXPECT_EQ(w.pool.idle(), 0u);
  }
  EXPECT_EQ(w.pool.idle(), 1u);
  auto again = w.pool.make(w.timeouts);
  EXPECT_EQ(again.get(), first);
  // Built anew, nothing left over: the worker fills a fresh record in place.
  EXPECT_EQ(again->rec.credit_num, 0);
  EXPECT_TRUE(again->rec.x_request_id.empty());
  EXPECT_EQ(again->t.reads, 0);
  EXPECT_FALSE(again->collector.has_value());
  EXPECT_EQ(w.pool.blocks(), 1u);
}

TEST(RequestStatePool, MakesOnlyAsManyBlocksAsWereInUseAtOnce) {
  WorkerLoop w;
  for (int round = 0; round < 3; ++round) {
    std::vector<RequestStatePool::Handle> live;
    for (int i = 0; i < 40; ++i) live.push_back(w.pool.make(w.timeouts));
    EXPECT_EQ(w.pool.blocks(), 40u);
  }
  EXPECT_EQ(w.pool.idle(), 40u);
}

TEST(RequestDeadlines, AStateDestroyedWhileListedLeavesItsWorkersList) {
  WorkerLoop w;
  {
    auto s = w.pool.make(w.timeouts);
    s->deadlines.arm_timeout(3600);
    EXPECT_EQ(w.timeouts.size(), 1u);
    EXPECT_TRUE(s->deadlines.timeout.listed());
  }  // as when the request's coroutine ends by an exception
  EXPECT_EQ(w.timeouts.size(), 0u);
}

TEST(RequestDeadlines, TheCancellationTimerCancelsUnlessDisarmedFirst) {
  WorkerLoop w;
  auto due = w.pool.make(w.timeouts);
  due->deadlines.arm_cancellation(1'000'000);  // 1 ms
  EXPECT_EQ(w.io.run_one(), 1u);
  ASSERT_TRUE(due->deadlines.cancel.cancelled());
  EXPECT_TRUE(due->deadlines.cancel.reason().type.is(core::RequestErrorKind::kRequestCancellation));
  EXPECT_EQ(due->deadlines.cancel.reason().code, 499);

  auto ended = w.pool.make(w.timeouts);
  ended->deadlines.arm_cancellation(1'000'000);
  ended->deadlines.disarm();
  EXPECT_EQ(*ended->deadlines.cancellation_target, nullptr);
  w.io.restart();
  w.io.run();  // the aborted wait
  EXPECT_FALSE(ended->deadlines.cancel.cancelled());
}

}  // namespace
}  // namespace inferperf::worker
