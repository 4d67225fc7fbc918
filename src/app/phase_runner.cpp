#include "app/phase_runner.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <iostream>
#include <string>
#include <thread>

#include "app/phase_plans.hpp"
#include "timing/scheduler.hpp"
#include "timing/waiter.hpp"

namespace inferperf::app {

using namespace std::string_literals;

PhaseRunner::PhaseRunner(const core::Clock& clock, const core::RngFactory& rngs,
                         const records::Collector& collector, PhaseRunnerOptions options)
    : clock_(clock), rngs_(rngs), collector_(collector), options_(std::move(options)) {}

void PhaseRunner::stop() {
  stopped_.store(true);
  std::lock_guard lock(current_mu_);
  if (auto* loop = current_.load()) loop->stop();
}

void PhaseRunner::returned(std::int64_t credit_id, std::int64_t session) {
  current_.load()->credit_returned(credit_id, session);
}

void PhaseRunner::first_token(std::int64_t credit_id) {
  current_.load()->first_token(credit_id);
}

PhaseOutcome PhaseRunner::run(const timing::PhasePlan& pp, double grace_s,
                              worker::WorkerPool& pool) {
  const std::string name = records::to_string(pp.phase);
  // Named random streams: the same seed gives the same run, warmup or not.
  const std::string prefix = pp.phase == records::Phase::kWarmup ? "warmup." : "";
  const char* interval_stream = pp.pattern == timing::ArrivalPattern::kGamma
                                    ? "timing.request.gamma_interval"
                                    : "timing.request.poisson_interval";
  timing::Scheduler sched(
      pp, options_.shapes,
      timing::ConversationSampler(options_.sampling, timing::root_indices(options_.shapes),
                                  rngs_.stream(prefix + "dataset.sampler"s)),
      rngs_.stream(prefix + interval_stream), rngs_.stream(prefix + "timing.request.cancellation"s),
      clock_.now_ns());
  timing::PreciseWaiter waiter;
  timing::IssuerLoop loop(clock_, waiter, sched, pool);
  {
    std::lock_guard lock(current_mu_);
    current_.store(&loop);
  }
  if (stopped_.load()) loop.stop();
  spdlog::info("{}: {}, {} worker thread(s)", name, describe(pp), options_.workers);
  std::thread issuer_thread([&] { loop.run(); });
  std::atomic<bool> phase_done{false};
  std::thread progress;
  if (options_.show_progress) {
    progress = std::thread([&] {
      while (!phase_done.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        if (phase_done.load()) break;
        std::cerr << fmt::format("\r[{}] sent {}{} completed {} errors {}   ", name, loop.issued(),
                                 pp.request_count ? fmt::format("/{}", *pp.request_count) : "",
                                 collector_.completed(), collector_.errors())
                  << std::flush;
      }
      std::cerr << "\n";
    });
  }
  issuer_thread.join();
  if (sched.skipped_arrivals() > 0) {
    spdlog::warn(
        "{}: the issuer was stalled for more than 2 ms at times; {} scheduled arrival(s) were "
        "skipped rather than sent in a burst (the achieved rate is lower by that much)",
        name, sched.skipped_arrivals());
  }
  std::optional<core::MonoNs> grace_deadline;
  if (pp.duration_s && std::isfinite(grace_s)) {
    grace_deadline = loop.sending_end_ns() + static_cast<core::MonoNs>(grace_s * 1e9);
  }
  if (!loop.wait_all_returned(grace_deadline)) {
    spdlog::info("{} grace period over; cancelling {} request(s) still in flight", name,
                 loop.issued() - loop.returned());
    pool.cancel_all("benchmark grace period expired");
    loop.wait_all_returned(std::nullopt);
  }
  phase_done.store(true);
  if (progress.joinable()) progress.join();
  PhaseOutcome out{sched.start_ns(), clock_.now_ns(), loop.dropped_arrivals()};
  {
    std::lock_guard lock(current_mu_);
    current_.store(nullptr);
  }
  return out;
}

}  // namespace inferperf::app
