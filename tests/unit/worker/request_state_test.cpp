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

}  // namespace
}  // namespace inferperf::worker
