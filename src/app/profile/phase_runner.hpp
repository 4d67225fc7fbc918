// Runs the phases of one benchmark (warmup, then profiling) one after the other on one worker
// pool: a scheduler and issuer thread per phase, the wait for what is in flight, the grace
// period and the failure threshold. progress() tells a live view what each phase has sent.
// Workers' reports go to whichever phase is running (phases never overlap).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "core/clock.hpp"
#include "core/rng.hpp"
#include "health/client_health.hpp"
#include "records/collector.hpp"
#include "timing/issuer_loop.hpp"
#include "timing/load_plan.hpp"
#include "ui/progress_snapshot.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::app {

class AdaptiveFeed;

struct PhaseOutcome {
  core::MonoNs start_ns = 0, end_ns = 0;
  std::int64_t dropped = 0;
  health::ClientLoad load;  // the client's own CPU and loop lag over the phase
};

struct PhaseRunnerOptions {
  std::vector<timing::SessionShape> shapes;  // one per dataset conversation
  timing::SamplingStrategy sampling = timing::SamplingStrategy::kShuffle;
  int workers = 1;  // for the log line
  // After stop(): how long in-flight requests may still finish, in any phase (∞ waits for them).
  double stop_grace_s = 30.0;
  // --failed-request-threshold: the phase stops issuing and cancels what is in flight once
  // failed / finished exceeds it, armed after `threshold_arm_after` of the phase's requests.
  std::optional<double> failed_request_threshold;
  std::int64_t threshold_arm_after = 10;
  // Open-loop rate modes: how long before its arrival a credit goes to the worker that times and
  // sends it (timing::Scheduler::hand_ahead_ns). INFERPERF_HAND_AHEAD_US overrides it for
  // benchmarks (0: the issuer hands each credit over when due).
  core::MonoNs hand_ahead_ns = default_hand_ahead_ns();
  static core::MonoNs default_hand_ahead_ns();
  // --adaptive-scale: moves the profiling phase's session limit (not owned; nullptr: none).
  AdaptiveFeed* adaptive = nullptr;
};

class PhaseRunner {
 public:
  PhaseRunner(const core::Clock& clock, const core::RngFactory& rngs,
              const records::Collector& collector, PhaseRunnerOptions options);

  // Sends the phase, then waits for every reply: after a duration or a stop() only up to
  // `grace_s` (stop_grace_s for a stop), then whatever is left is cancelled.
  PhaseOutcome run(const timing::PhasePlan& plan, double grace_s, worker::WorkerPool& pool);
  // Any thread (the signal watcher): no more sending, in this phase or any later one; what is in
  // flight has stop_grace_s to finish.
  void stop();
  bool stopped() const { return stopped_.load(); }
  AdaptiveFeed* adaptive_feed() const { return options_.adaptive; }
  // Whether a phase stopped because its failures exceeded --failed-request-threshold.
  bool failure_threshold_exceeded() const { return threshold_exceeded_.load(); }
  // Worker threads: forwarded to the running phase's issuer.
  void returned(std::span<const timing::ReturnedCredit> credits);
  void first_token(std::int64_t credit_id);
  // Any thread (the UI thread): each phase started so far with what it has sent, what is in
  // flight, its target and elapsed time. Completed and error counts come from the records
  // (ui::LiveStats), not from here.
  std::vector<ui::PhaseProgress> progress() const;

 private:
  struct Track {
    ui::PhaseProgress view;  // sent / in flight final once done
    core::MonoNs start_ns = 0, end_ns = 0;
  };
  const core::Clock& clock_;
  const core::RngFactory& rngs_;
  const records::Collector& collector_;
  PhaseRunnerOptions options_;
  std::atomic<timing::IssuerLoop*> current_{nullptr};
  mutable std::mutex current_mu_;  // stop() and progress() must not reach a destroyed loop
  std::vector<Track> tracks_;      // guarded by current_mu_
  std::atomic<bool> stopped_{false};
  std::atomic<core::MonoNs> stop_ns_{0};
  std::atomic<bool> threshold_exceeded_{false};
};

}  // namespace inferperf::app
