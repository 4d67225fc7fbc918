// A worker's requests in flight under one timeout timer: cancelled in deadline order, exactly the
// ones due, never one that ended; the timer always waits for the earliest deadline listed.
#include "worker/request_timeouts.hpp"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <vector>

namespace inferperf::worker {
namespace {

using Clock = RequestTimeouts::Clock;
using std::chrono::milliseconds;

struct Request {
  transport::CancelHandle cancel;
  RequestTimeouts::Entry entry;
};

// A worker's list, and a time an hour ahead to set deadlines from (the timer never fires).
struct List {
  boost::asio::io_context io;
  RequestTimeouts list{io};
  const Clock::time_point t0 = Clock::now() + std::chrono::hours(1);
};

// Every request listed, the i-th due at t0 + i steps.
template <std::size_t N>
void add_in_order(List& l, std::array<Request, N>& r, milliseconds step) {
  for (std::size_t i = 0; i < N; ++i) {
    l.list.add(r[i].entry, r[i].cancel, l.t0 + step * static_cast<int>(i));
  }
}

std::vector<transport::CancelHandle*> listed(const RequestTimeouts& list) {
  std::vector<transport::CancelHandle*> out;
  list.for_each([&](transport::CancelHandle& c) { out.push_back(&c); });
  return out;
}

TEST(RequestTimeouts, ExpiresExactlyTheDueRequestsOldestFirst) {
  List l;
  std::array<Request, 4> r;
  add_in_order(l, r, milliseconds(10));
  EXPECT_EQ(l.list.size(), 4u);
  EXPECT_EQ(l.list.armed_for(), l.t0);

  l.list.expire(l.t0 + milliseconds(9));  // only the first is due
  EXPECT_TRUE(r[0].cancel.cancelled());
  EXPECT_FALSE(r[1].cancel.cancelled());
  EXPECT_FALSE(r[0].entry.listed());
  EXPECT_TRUE(r[0].cancel.reason().type.is(core::RequestErrorKind::kTimeout));
  EXPECT_EQ(r[0].cancel.reason().message, "request exceeded --request-timeout-seconds");

  l.list.expire(l.t0 + milliseconds(20));  // a deadline equal to now is due
  EXPECT_TRUE(r[1].cancel.cancelled());
  EXPECT_TRUE(r[2].cancel.cancelled());
  EXPECT_FALSE(r[3].cancel.cancelled());
  EXPECT_EQ(l.list.size(), 1u);
  EXPECT_EQ(listed(l.list), std::vector<transport::CancelHandle*>{&r[3].cancel});
  r[0].entry.leave();  // a timed-out request ending later changes nothing
  EXPECT_EQ(l.list.size(), 1u);
}

TEST(RequestTimeouts, ARequestThatEndedIsNeverCancelledAndTheOthersKeepTheirOrder) {
  List l;
  std::array<Request, 5> r;
  add_in_order(l, r, milliseconds(1));
  r[0].entry.leave();  // the head
  r[2].entry.leave();  // the middle
  r[4].entry.leave();  // the tail
  EXPECT_EQ(l.list.size(), 2u);
  EXPECT_EQ(listed(l.list), (std::vector<transport::CancelHandle*>{&r[1].cancel, &r[3].cancel}));
  l.list.expire(l.t0 + milliseconds(10));
  EXPECT_FALSE(r[0].cancel.cancelled());
  EXPECT_TRUE(r[1].cancel.cancelled());
  EXPECT_FALSE(r[2].cancel.cancelled());
  EXPECT_TRUE(r[3].cancel.cancelled());
  EXPECT_FALSE(r[4].cancel.cancelled());
  EXPECT_EQ(l.list.size(), 0u);
  EXPECT_TRUE(listed(l.list).empty());
}

TEST(RequestTimeouts, AnEarlierDeadlineGoesToItsPlaceAndTheTimerWaitsForIt) {
  List l;
  std::array<Request, 4> r;
  l.list.add(r[0].entry, r[0].cancel, l.t0 + milliseconds(20));
  l.list.add(r[1].entry, r[1].cancel, l.t0 + milliseconds(40));
  l.list.add(r[2].entry, r[2].cancel, l.t0 + milliseconds(30));  // between the two
  l.list.add(r[3].entry, r[3].cancel, l.t0 + milliseconds(10));  // before all
  EXPECT_EQ(listed(l.list), (std::vector<transport::CancelHandle*>{&r[3].cancel, &r[0].cancel,
                                                                   &r[2].cancel, &r[1].cancel}));
  EXPECT_EQ(l.list.armed_for(), l.t0 + milliseconds(10));
  l.list.expire(l.t0 + milliseconds(30));
  EXPECT_TRUE(r[2].cancel.cancelled());
  EXPECT_FALSE(r[1].cancel.cancelled());
}

TEST(RequestTimeouts, TheTimerCancelsWhatIsDueAndWaitsAgainForTheRest) {
  boost::asio::io_context io;
  RequestTimeouts list(io);
  const Clock::time_point start = Clock::now();
  std::array<Request, 3> r;
  list.add(r[0].entry, r[0].cancel, start + milliseconds(20));
  list.add(r[1].entry, r[1].cancel, start + milliseconds(40));
  list.add(r[2].entry, r[2].cancel, start + milliseconds(1000));
  r[1].entry.leave();
  // The first deadline passes (the timer's one wait completes): only the first request is
  // cancelled, and the timer then waits for the third (the second ended).
  EXPECT_EQ(io.run_one(), 1u);
  EXPECT_GE(Clock::now(), start + milliseconds(20));
  EXPECT_TRUE(r[0].cancel.cancelled());
  EXPECT_FALSE(r[1].cancel.cancelled());
  EXPECT_FALSE(r[2].cancel.cancelled());
  EXPECT_EQ(list.armed_for(), start + milliseconds(1000));
  // run() returns once the list is empty: the timer is not re-armed for nothing.
  io.run();
  EXPECT_GE(Clock::now(), start + milliseconds(1000));
  EXPECT_TRUE(r[2].cancel.cancelled());
  EXPECT_FALSE(r[1].cancel.cancelled());
  EXPECT_EQ(list.size(), 0u);
  EXPECT_FALSE(list.armed_for().has_value());
}

TEST(RequestTimeouts, RequestsOutlivingTheListFindThemselvesOutOfIt) {
  boost::asio::io_context io;
  std::array<Request, 3> r;
  {
    RequestTimeouts list(io);
    for (auto& q : r) list.add(q.entry, q.cancel, Clock::now() + std::chrono::hours(1));
  }
  for (auto& q : r) {
    EXPECT_FALSE(q.entry.listed());
    q.entry.leave();  // as a state destroyed by the io_context's shutdown does
  }
  io.run();  // the destroyed timer's aborted wait touches nothing
  for (auto& q : r) EXPECT_FALSE(q.cancel.cancelled());
}

}  // namespace
}  // namespace inferperf::worker
