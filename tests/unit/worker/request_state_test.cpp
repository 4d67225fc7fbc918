// The worker's request-state blocks: recycled on its thread, never more than were in use at once.
#include "worker/request_state.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace inferperf::worker {
namespace {

records::RequestRecord record(std::int64_t id) {
  records::RequestRecord r;
  r.credit_num = id;
  return r;
}

TEST(RequestStatePool, AReleasedBlockServesTheNextStateAndTheStateIsFresh) {
  boost::asio::io_context io;
  RequestStatePool pool;
  const RequestState* first = nullptr;
  {
    auto s = pool.make(io, record(1));
    first = s.get();
    s->t.reads = 7;
    EXPECT_EQ(pool.idle(), 0u);
  }
  EXPECT_EQ(pool.idle(), 1u);
  auto again = pool.make(io, record(2));
  EXPECT_EQ(again.get(), first);
  EXPECT_EQ(again->rec.credit_num, 2);
  EXPECT_EQ(again->t.reads, 0);  // built anew, not left over
  EXPECT_FALSE(again->collector.has_value());
  EXPECT_EQ(pool.blocks(), 1u);
}

TEST(RequestStatePool, MakesOnlyAsManyBlocksAsWereInUseAtOnce) {
  boost::asio::io_context io;
  RequestStatePool pool;
  for (int round = 0; round < 3; ++round) {
    std::vector<RequestStatePool::Handle> live;
    for (int i = 0; i < 40; ++i) live.push_back(pool.make(io, record(i)));
    EXPECT_EQ(pool.blocks(), 40u);
  }
  EXPECT_EQ(pool.idle(), 40u);
}

}  // namespace
}  // namespace inferperf::worker
