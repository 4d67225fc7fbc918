// The worker's request-state blocks: recycled on its thread, never more than were in use at once.
#include "worker/request_state.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace inferperf::worker {
namespace {

TEST(RequestStatePool, AReleasedBlockServesTheNextStateAndTheStateIsFresh) {
  boost::asio::io_context io;
  RequestTimeouts timeouts(io);
  RequestStatePool pool;
  const RequestState* first = nullptr;
  {
    auto s = pool.make(timeouts);
    first = s.get();
    s->rec.credit_num = 1;
    s->rec.x_request_id = "left over";
    s->t.reads = 7;
    EXPECT_EQ(pool.idle(), 0u);
  }
  EXPECT_EQ(pool.idle(), 1u);
  auto again = pool.make(timeouts);
  EXPECT_EQ(again.get(), first);
  // Built anew, nothing left over: the worker fills a fresh record in place.
  EXPECT_EQ(again->rec.credit_num, 0);
  EXPECT_TRUE(again->rec.x_request_id.empty());
  EXPECT_EQ(again->t.reads, 0);
  EXPECT_FALSE(again->collector.has_value());
  EXPECT_EQ(pool.blocks(), 1u);
}

TEST(RequestStatePool, MakesOnlyAsManyBlocksAsWereInUseAtOnce) {
  boost::asio::io_context io;
  RequestTimeouts timeouts(io);
  RequestStatePool pool;
  for (int round = 0; round < 3; ++round) {
    std::vector<RequestStatePool::Handle> live;
    for (int i = 0; i < 40; ++i) live.push_back(pool.make(timeouts));
    EXPECT_EQ(pool.blocks(), 40u);
  }
  EXPECT_EQ(pool.idle(), 40u);
}

TEST(RequestDeadlines, AStateDestroyedWhileListedLeavesItsWorkersList) {
  boost::asio::io_context io;
  RequestTimeouts timeouts(io);
  RequestStatePool pool;
  {
    auto s = pool.make(timeouts);
    s->deadlines.arm_timeout(3600);
    EXPECT_EQ(timeouts.size(), 1u);
    EXPECT_TRUE(s->deadlines.timeout.listed());
  }  // as when the request's coroutine ends by an exception
  EXPECT_EQ(timeouts.size(), 0u);
}

TEST(RequestDeadlines, TheCancellationTimerCancelsUnlessDisarmedFirst) {
  boost::asio::io_context io;
  RequestTimeouts timeouts(io);
  RequestStatePool pool;
  auto due = pool.make(timeouts);
  due->deadlines.arm_cancellation(1'000'000);  // 1 ms
  EXPECT_EQ(io.run_one(), 1u);
  ASSERT_TRUE(due->deadlines.cancel.cancelled());
  EXPECT_TRUE(due->deadlines.cancel.reason().type.is(core::RequestErrorKind::kRequestCancellation));
  EXPECT_EQ(due->deadlines.cancel.reason().code, 499);

  auto ended = pool.make(timeouts);
  ended->deadlines.arm_cancellation(1'000'000);
  ended->deadlines.disarm();
  EXPECT_EQ(*ended->deadlines.cancellation_target, nullptr);
  io.restart();
  io.run();  // the aborted wait
  EXPECT_FALSE(ended->deadlines.cancel.cancelled());
}

}  // namespace
}  // namespace inferperf::worker
