// Worker threads: each owns one io_context, its connections and its parsers, and runs one
// coroutine per credit. Threads meet only at credit dispatch, the record queue and the issuer's
// event callbacks. A multi-turn session lives on one worker: its history (user turns and the
// assistant replies received) is kept there and every later turn is routed back to it.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/clock.hpp"
#include "core/cpu_time.hpp"
#include "core/latency_histogram.hpp"
#include "records/record_queue.hpp"
#include "timing/credit.hpp"
#include "transport/connection_pool.hpp"
#include "transport/http_exchange.hpp"
#include "worker/held_credits.hpp"
#include "worker/request_plan.hpp"
#include "worker/request_state.hpp"
#include "worker/response_collector.hpp"

namespace inferperf::worker {

// Whether a request's reply goes into its session's history for the next turn
// (Worker::thread_reply): a turn before the session's last, in a conversation whose live replies
// are threaded in. Only then does the request's collector keep the reply.
bool threads_reply(const dataset::Dataset& ds, const timing::Credit& credit);

// What workers report back to the issuer (from their own threads).
struct WorkerEvents {
  // The credits of the requests that finished in one turn of a worker's loop.
  std::function<void(std::span<const timing::ReturnedCredit>)> returned;
  std::function<void(std::int64_t credit_id)> first_token;  // may be empty
};

// How busy a worker is, readable from any thread while it runs.
struct WorkerLoad {
  std::optional<std::int64_t> cpu_ns;      // the thread's CPU time so far (nullopt: not running)
  core::HistogramSnapshot loop_lag;        // lateness of the loop probe, since the worker started
  std::optional<core::ThreadSched> sched;  // run-queue wait and preemptions so far
  int in_flight = 0;                       // credits handed to it and not yet complete
};

// The loop probe's period: often enough for a p99 over a few seconds, rare enough (100 wakeups
// per second) to cost nothing measurable.
inline constexpr std::chrono::milliseconds kLoopProbePeriod{10};
// Reads parked on "nothing queued" get their socket error checked about once a second, on the
// loop probe's ticks.
inline constexpr std::chrono::seconds kQuietReadCheckPeriod{1};
inline constexpr int kQuietReadCheckTicks =
    static_cast<int>(kQuietReadCheckPeriod / kLoopProbePeriod);
static_assert(kQuietReadCheckPeriod % kLoopProbePeriod == std::chrono::milliseconds{0} &&
                  kQuietReadCheckTicks > 0,
              "the check's period is a whole number of probe ticks");

class Worker {
 public:
  // `ahead`: the pool's gate for credits handed out ahead (shut by a stop) and their count.
  Worker(int id, const RequestPlan& plan, const core::Clock& clock, records::RecordQueue& queue,
         const WorkerEvents& events, AheadGate& ahead);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start();
  void submit(timing::Credit credit);
  // A credit not yet due: held on this worker's thread and sent at its intended time (or given
  // back to `listener` once the gate is shut). It counts as in flight from now.
  void submit_ahead(timing::Credit credit, timing::WithdrawListener& listener);
  // The gate was shut: every held credit goes back.
  void withdraw_ahead();
  // Cancels every request in flight (their records say was_cancelled); thread-safe.
  void cancel_all(std::string message);
  void stop();
  int in_flight() const { return in_flight_.load(std::memory_order_relaxed); }
  WorkerLoad load() const;

 private:
  // Runs one request as a coroutine on this worker's loop; its record goes to the queue.
  void launch(timing::Credit credit);
  // The record's fields known before anything is sent, written into the request's state's record
  // (fresh: default-constructed), not built apart and moved there.
  void start_record(const timing::Credit& credit, records::RequestRecord& rec) const;
  // The serialized request (and the raw capture, when asked for). nullopt when the body cannot be
  // built: `rec` then carries the error, and a final turn has ended its session.
  std::optional<std::string> build_request(const timing::Credit& credit, std::size_t target,
                                           records::RequestRecord& rec);
  // A session's history after a turn of an accumulating conversation: gone after the final turn,
  // else extended with the reply the next turn carries.
  void thread_reply(const timing::Credit& credit, const records::RequestRecord& rec,
                    const ResponseCollector& collector);
  // Hands the finished record over and returns the credit (with flush_returns()).
  void complete(const timing::Credit& credit, records::RequestRecord&& rec);
  // Gives the issuer every credit returned since the last call, in one call: posted by the first
  // return after a flush, so it runs once the loop has handled what was ready with it, and a
  // closed loop wakes the issuer once per turn of this loop instead of once per request.
  void flush_returns();
  // Event-loop lag: a timer due every kLoopProbePeriod records how late its handler ran. A loop
  // busy with socket reads or starved of CPU runs it late, and its read timestamps with it. Every
  // kQuietReadCheckTicks ticks it also checks the reads parked on "nothing queued" for a reset
  // that raised no readiness edge (transport::check_quiet_reads).
  void arm_probe();
  bool accumulates(const timing::Credit& credit) const;
  // The request's body: the prebuilt one where there is one (no copy of a prompt that may be
  // hundreds of kilobytes per request), else one built into body_scratch_ (valid until the next
  // call; build_request uses it before anything suspends).
  const std::string& body_for(const timing::Credit& credit);
  // video_generation: polls the job the POST created until it completes, fails or is cancelled.
  boost::asio::awaitable<std::optional<transport::ExchangeError>> poll_video_job(
      transport::ConnectionPool& pool, const Target& target, ResponseCollector& collector,
      records::RequestRecord& rec, transport::CancelHandle& cancel);

  int id_;
  const RequestPlan& plan_;
  const core::Clock& clock_;
  records::RecordQueue& queue_;
  const WorkerEvents& events_;
  // Before io_: its shutdown destroys the requests still in flight, which give their blocks back.
  RequestStatePool states_;
  // Run by this worker's one thread, which alone starts, reads and closes its sockets (other
  // threads only post to it): the reactor's per-socket lock is off (taken by every perform,
  // start and cancel otherwise), the scheduler's lock stays for those posts.
  boost::asio::io_context io_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
  // The requests in flight (their timeouts, and what cancel_all cancels). After io_: it is
  // destroyed first and unlists every request, so the unfinished ones io_'s shutdown destroys
  // find themselves out of it.
  RequestTimeouts timeouts_{io_};
  std::vector<std::unique_ptr<transport::ConnectionPool>> pools_;  // one per target
  std::vector<RequestHead> heads_;                                 // one per target
  // Multi-turn sessions on this worker: the messages sent and received so far.
  std::unordered_map<std::int64_t, std::vector<dataset::Turn>> histories_;
  std::atomic<int> in_flight_{0};
  std::vector<timing::ReturnedCredit> returns_, returns_sent_;  // flush_returns() swaps them
  std::string body_scratch_;                                    // see body_for()
  HeldCredits held_;  // credits handed out ahead, sent from this thread when due
  boost::asio::steady_timer probe_{io_};
  std::chrono::steady_clock::time_point probe_due_{};
  int probe_ticks_ = 0;
  core::LatencyHistogram loop_lag_;
  std::thread thread_;
  // The live view's thread reads this worker's CPU clock (load()) while the main thread starts and
  // stops it: the lock keeps the clock from being read across the join, when native_ stops naming
  // a thread.
  mutable std::mutex life_mu_;
  pthread_t native_{};       // for the CPU clock; valid while started_
  std::atomic<int> tid_{0};  // the thread's kernel id, for its scheduler statistics
  bool started_ = false;     // guarded by life_mu_
};

class WorkerPool final : public timing::CreditSink {
 public:
  WorkerPool(int workers, const RequestPlan& plan, const core::Clock& clock,
             records::RecordQueue& queue, WorkerEvents events);
  void start();
  // Called by one thread at a time: the issuer's, or a worker's handling its returns inline, always
  // under IssuerLoop's scheduler mutex, which is what keeps route()'s state (next_,
  // session_worker_, open_sessions_) unshared. It only posts: it must never call back into
  // credits_returned.
  void dispatch(timing::Credit credit) override;
  // Credits handed out ahead go to the worker dispatch() would pick, which times and sends them.
  bool holds_ahead() const override { return true; }
  void dispatch_ahead(timing::Credit credit, timing::WithdrawListener& listener) override;
  void withdraw_ahead(bool everything = false) override;
  void open_ahead() override { ahead_.open(); }
  std::int64_t held_ahead() const override { return ahead_.held.load(); }
  // Before a phase's issuer starts, every credit of the phase before having come back: that
  // phase's sessions are over, and the later turns it never sent (a warm-up cut at its count or
  // duration) will not come, so they no longer count as a worker's open sessions.
  void begin_phase();
  void cancel_all(const std::string& message);
  void stop();
  std::size_t size() const { return workers_.size(); }
  std::vector<WorkerLoad> loads() const;

 private:
  // The worker that sends this credit (a later turn: its session's; else the least loaded, ties
  // to the fewest open sessions).
  std::size_t route(const timing::Credit& credit);

  WorkerEvents events_;
  AheadGate ahead_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::size_t next_ = 0;
  std::unordered_map<std::int64_t, std::size_t> session_worker_;  // multi-turn sessions in progress
  // Per worker, its sessions in session_worker_: the later turns that will come to it.
  std::vector<int> open_sessions_;
};

}  // namespace inferperf::worker
