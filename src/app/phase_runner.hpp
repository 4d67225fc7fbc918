// Runs the phases of one benchmark (warmup, then profiling) one after the other on one worker
// pool: a scheduler and issuer thread per phase, the wait for what is in flight, the grace
// period, and the progress line. Workers' reports go to whichever phase is running (phases
// never overlap).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/clock.hpp"
#include "core/rng.hpp"
#include "records/collector.hpp"
#include "timing/issuer_loop.hpp"
#include "timing/load_plan.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::app {

struct PhaseOutcome {
  core::MonoNs start_ns = 0, end_ns = 0;
  std::int64_t dropped = 0;
};

struct PhaseRunnerOptions {
  std::vector<timing::SessionShape> shapes;  // one per dataset conversation
  timing::SamplingStrategy sampling = timing::SamplingStrategy::kShuffle;
  bool show_progress = false;
  int workers = 1;  // for the log line
};

class PhaseRunner {
 public:
  PhaseRunner(const core::Clock& clock, const core::RngFactory& rngs,
              const records::Collector& collector, PhaseRunnerOptions options);

  // Sends the phase, then waits for every reply: after a duration only up to `grace_s`, then
  // whatever is left is cancelled.
  PhaseOutcome run(const timing::PhasePlan& plan, double grace_s, worker::WorkerPool& pool);
  // Any thread (the signal watcher): no more sending, in this phase or any later one.
  void stop();
  bool stopped() const { return stopped_.load(); }
  // Worker threads: forwarded to the running phase's issuer.
  void returned(std::int64_t credit_id, std::int64_t session);
  void first_token(std::int64_t credit_id);

 private:
  const core::Clock& clock_;
  const core::RngFactory& rngs_;
  const records::Collector& collector_;
  PhaseRunnerOptions options_;
  std::atomic<timing::IssuerLoop*> current_{nullptr};
  std::mutex current_mu_;  // stop() must not reach a loop that is being destroyed
  std::atomic<bool> stopped_{false};
};

}  // namespace inferperf::app
