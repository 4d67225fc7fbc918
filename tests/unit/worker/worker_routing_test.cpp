// Where WorkerPool sends a credit, read from each worker's count of credits in flight. The workers
// are not started: a dispatched credit waits in its worker's queue and counts as in flight there.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/clock.hpp"
#include "records/record_queue.hpp"
#include "timing/credit.hpp"
#include "worker/request_plan.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::worker {
namespace {

// Turn `turn` of `turns` of session `session`.
timing::Credit turn_of(std::int64_t session, int turn, int turns) {
  timing::Credit c;
  c.id = session * 100 + turn;
  c.session = session;
  c.turn_index = turn;
  c.num_turns = turns;
  return c;
}

class TwoWorkers {
 public:
  TwoWorkers() {
    Target t;
    t.url.host = "127.0.0.1";
    t.url.port = 9;
    t.path = "/v1/chat/completions";
    plan_.targets.push_back(t);
    pool_ = std::make_unique<WorkerPool>(2, plan_, clock_, queue_, WorkerEvents{});
  }
  WorkerPool& pool() { return *pool_; }
  std::vector<int> in_flight() const {
    std::vector<int> out;
    for (const WorkerLoad& l : pool_->loads()) out.push_back(l.in_flight);
    return out;
  }

 private:
  RequestPlan plan_;
  core::SteadyClock clock_;
  records::RecordQueue queue_;
  std::unique_ptr<WorkerPool> pool_;
};

TEST(WorkerRouting, AmongEqualLoadsTheWorkerWithFewerOpenSessionsTakesANewOne) {
  TwoWorkers w;
  w.pool().dispatch(turn_of(1, 0, 2));  // worker 0: its session's next turn will come back to it
  w.pool().dispatch(turn_of(2, 0, 1));  // worker 1, the less loaded
  EXPECT_EQ(w.in_flight(), (std::vector<int>{1, 1}));
  // Equal loads, and round-robin's turn is worker 0's; worker 1 has no open session: it wins.
  w.pool().dispatch(turn_of(3, 0, 1));
  EXPECT_EQ(w.in_flight(), (std::vector<int>{1, 2}));
  // A later turn goes to its session's worker whatever the loads; the last one closes it.
  w.pool().dispatch(turn_of(1, 1, 2));
  EXPECT_EQ(w.in_flight(), (std::vector<int>{2, 2}));
  // No open session left: round-robin again, from worker 0.
  w.pool().dispatch(turn_of(4, 0, 1));
  EXPECT_EQ(w.in_flight(), (std::vector<int>{3, 2}));
}

TEST(WorkerRouting, ANewPhaseForgetsTheSessionsOfTheOneBefore) {
  TwoWorkers w;
  w.pool().dispatch(turn_of(1, 0, 2));  // worker 0; its last turn is never sent (a cut warm-up)
  w.pool().dispatch(turn_of(2, 0, 1));  // worker 1
  w.pool().begin_phase();
  // Equal loads and, the old session forgotten, no open sessions: round-robin gives worker 0.
  w.pool().dispatch(turn_of(1, 0, 1));
  EXPECT_EQ(w.in_flight(), (std::vector<int>{2, 1}));
}

}  // namespace
}  // namespace inferperf::worker
