// The records queue between the workers and the collector: every record comes out once, in push
// order, whichever way a drain hands them over, and a closed queue still gives what it holds.
#include "records/record_queue.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "numbered_record.hpp"

namespace inferperf::records {
namespace {

using std::chrono::milliseconds;

std::vector<std::int64_t> credits(const std::vector<RequestRecord>& rs) {
  std::vector<std::int64_t> out;
  for (const auto& r : rs) out.push_back(r.credit_num);
  return out;
}

TEST(RecordQueue, EmptyAndNonEmptyBatchesBothReceiveEveryRecordInOrder) {
  RecordQueue q;
  for (int i = 0; i < 3; ++i) q.push(numbered(i));
  std::vector<RequestRecord> batch;
  ASSERT_TRUE(q.drain(batch, milliseconds(0)));  // empty: takes the queue's buffer
  EXPECT_EQ(credits(batch), (std::vector<std::int64_t>{0, 1, 2}));
  for (int i = 3; i < 5; ++i) q.push(numbered(i));
  ASSERT_TRUE(q.drain(batch, milliseconds(0)));  // not empty: appended after what it holds
  EXPECT_EQ(credits(batch), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  batch.clear();
  ASSERT_TRUE(q.drain(batch, milliseconds(0)));
  EXPECT_TRUE(batch.empty());
  q.push(numbered(5));  // into the buffer the first drain handed back
  ASSERT_TRUE(q.drain(batch, milliseconds(0)));
  EXPECT_EQ(credits(batch), (std::vector<std::int64_t>{5}));
}

TEST(RecordQueue, ABacklogFarBeyondABatchComesOutWholeAndTheQueueGoesOn) {
  RecordQueue q;
  constexpr int kBacklog = 20 * static_cast<int>(RecordQueue::kWakeBatch);
  for (int i = 0; i < kBacklog; ++i) q.push(numbered(i));
  std::vector<RequestRecord> batch;
  ASSERT_TRUE(q.drain(batch, milliseconds(0)));
  ASSERT_EQ(batch.size(), static_cast<std::size_t>(kBacklog));
  for (int i = 0; i < kBacklog; ++i) ASSERT_EQ(batch[i].credit_num, i);
  batch.clear();  // the backlog's buffer goes back on the next drain and is not kept
  q.push(numbered(kBacklog));
  ASSERT_TRUE(q.drain(batch, milliseconds(0)));
  EXPECT_EQ(credits(batch), (std::vector<std::int64_t>{kBacklog}));
}

TEST(RecordQueue, ClosedQueueGivesWhatItHoldsThenReportsTheEnd) {
  RecordQueue q;
  q.push(numbered(7));
  q.close();
  std::vector<RequestRecord> batch;
  EXPECT_TRUE(q.drain(batch, milliseconds(1000)));  // closed: no wait for a full batch
  EXPECT_EQ(credits(batch), (std::vector<std::int64_t>{7}));
  batch.clear();
  EXPECT_FALSE(q.drain(batch, milliseconds(1000)));
}

TEST(RecordQueue, ProducersOnOtherThreadsLoseNothing) {
  RecordQueue q;
  constexpr int kPerThread = 2000;
  std::vector<std::thread> producers;
  for (int t = 0; t < 3; ++t) {
    producers.emplace_back([&q, t] {
      for (int i = 0; i < kPerThread; ++i) q.push(numbered(t * kPerThread + i));
    });
  }
  std::vector<std::int64_t> seen;
  std::thread closer([&] {
    for (auto& p : producers) p.join();
    q.close();
  });
  std::vector<RequestRecord> batch;
  for (;;) {
    batch.clear();
    const bool more = q.drain(batch, milliseconds(5));
    for (const auto& r : batch) seen.push_back(r.credit_num);
    if (!more) break;
  }
  closer.join();
  ASSERT_EQ(seen.size(), static_cast<std::size_t>(3 * kPerThread));
  // Each producer's records arrive in its own order.
  std::vector<std::int64_t> last(3, -1);
  for (std::int64_t c : seen) {
    const auto t = static_cast<std::size_t>(c / kPerThread);
    EXPECT_GT(c, last[t]);
    last[t] = c;
  }
}

}  // namespace
}  // namespace inferperf::records
