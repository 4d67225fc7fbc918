// The mock's capacity model: the gap and prefill formulas, and the slot gate's limit, arrival
// order and hand-over, driven by coroutines on one io_context.
#include "capacity.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <vector>

namespace inferperf::mock {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

TEST(CapacityModel, GapGrowsWithTheOtherStreamsAndPrefillWithThePrompt) {
  EXPECT_EQ(token_gap(5ms, 2ms, 1), 5ms);  // alone
  EXPECT_EQ(token_gap(5ms, 2ms, 4), 11ms);
  EXPECT_EQ(token_gap(5ms, 2ms, 0), 5ms);  // never below the ITL
  EXPECT_EQ(token_gap(5ms, 0ms, 100), 5ms);
  EXPECT_EQ(prefill_delay(250us, 1000), 250ms);
  EXPECT_EQ(prefill_delay(250us, -3), 0ms);
}

struct Trace {
  std::vector<int> granted;  // request ids in grant order
  std::vector<bool> waited;
  int most_active = 0;
  int most_queued = 0;
};

asio::awaitable<void> request(SlotGate& gate, int id, std::chrono::milliseconds hold, Trace& t) {
  Slot slot = co_await gate.acquire();
  EXPECT_TRUE(slot.held());
  t.granted.push_back(id);
  t.waited.push_back(slot.waited());
  t.most_active = std::max(t.most_active, gate.active());
  t.most_queued = std::max(t.most_queued, gate.queued());
  asio::steady_timer timer(co_await asio::this_coro::executor, hold);
  co_await timer.async_wait(asio::use_awaitable);
}

TEST(SlotGate, AtMostNHoldSlotsAndTheRestAreServedInArrivalOrder) {
  asio::io_context io;
  SlotGate gate(2);
  Trace t;
  // 0 and 1 take the slots; 2, 3, 4 queue in that order; 1 finishes first, so 2 gets its slot.
  const std::vector<std::chrono::milliseconds> hold = {30ms, 10ms, 10ms, 10ms, 10ms};
  for (int id = 0; id < 5; ++id) asio::co_spawn(io, request(gate, id, hold[id], t), asio::detached);
  io.run();
  EXPECT_EQ(t.granted, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(t.waited, (std::vector<bool>{false, false, true, true, true}));
  EXPECT_EQ(t.most_active, 2);
  EXPECT_EQ(t.most_queued, 2);  // sampled at each grant: 3 and 4 still wait when 2 gets in
  EXPECT_EQ(gate.active(), 0);
  EXPECT_EQ(gate.queued(), 0);
}

TEST(SlotGate, WithoutALimitEveryoneHoldsOneAtOnceAndIsCounted) {
  asio::io_context io;
  SlotGate gate(0);
  Trace t;
  for (int id = 0; id < 6; ++id) asio::co_spawn(io, request(gate, id, 5ms, t), asio::detached);
  io.run();
  EXPECT_EQ(t.most_active, 6);
  EXPECT_EQ(t.most_queued, 0);
  EXPECT_EQ(gate.active(), 0);
}

TEST(SlotGate, AWaiterDestroyedBeforeItsTurnIsSkipped) {
  SlotGate gate(1);
  Trace t;
  {
    asio::io_context io;
    asio::co_spawn(io, request(gate, 0, 50ms, t), asio::detached);
    asio::co_spawn(io, request(gate, 1, 1ms, t), asio::detached);
    io.run_for(10ms);  // 0 holds the slot, 1 waits; then both frames are destroyed with `io`
    EXPECT_EQ(gate.queued(), 1);
  }
  EXPECT_EQ(gate.active(), 0);
  asio::io_context io2;
  asio::co_spawn(io2, request(gate, 2, 1ms, t), asio::detached);
  io2.run();
  EXPECT_EQ(t.granted, (std::vector<int>{0, 2}));
  EXPECT_EQ(gate.active(), 0);
}

}  // namespace
}  // namespace inferperf::mock
