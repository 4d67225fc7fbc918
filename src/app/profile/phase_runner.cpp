#include "app/profile/phase_runner.hpp"

#include "app/profile/adaptive_feed.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

#include "app/profile/phase_plans.hpp"
#include "core/cpu_time.hpp"
#include "core/env_int.hpp"
#include "timing/scheduler.hpp"
#include "timing/waiter.hpp"

namespace inferperf::app {

using namespace std::string_literals;

namespace {

health::ClientLoad measure_load(std::chrono::steady_clock::time_point window_start,
                                const std::vector<worker::WorkerLoad>& before,
                                const core::ProcessCpu& cpu_before,
                                const std::vector<worker::WorkerLoad>& after,
                                std::int64_t issuer_cpu_ns,
                                const std::optional<std::int64_t>& steal_before) {
  health::ClientLoad load;
  load.window_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - window_start).count();
  const core::ProcessCpu cpu_after = core::process_cpu();
  load.process_user_s = static_cast<double>(cpu_after.user_ns - cpu_before.user_ns) / 1e9;
  load.process_system_s = static_cast<double>(cpu_after.system_ns - cpu_before.system_ns) / 1e9;
  load.issuer_cpu_s = static_cast<double>(issuer_cpu_ns) / 1e9;
  for (std::size_t i = 0; i < after.size() && i < before.size(); ++i) {
    const double cpu_s = after[i].cpu_ns && before[i].cpu_ns
                             ? static_cast<double>(*after[i].cpu_ns - *before[i].cpu_ns) / 1e9
                             : 0.0;
    load.workers.push_back(health::worker_usage(static_cast<int>(i), cpu_s,
                                                after[i].loop_lag.since(before[i].loop_lag)));
    if (after[i].sched && before[i].sched) {
      load.workers.back().run_delay_s =
          static_cast<double>(after[i].sched->run_delay_ns - before[i].sched->run_delay_ns) / 1e9;
      load.workers.back().involuntary_switches = static_cast<double>(
          after[i].sched->involuntary_switches - before[i].sched->involuntary_switches);
    }
  }
  if (const auto steal_after = core::host_steal_ns(); steal_after && steal_before)
    load.host_steal_s = static_cast<double>(*steal_after - *steal_before) / 1e9;
  load.host_cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return load;
}

}  // namespace

core::MonoNs PhaseRunnerOptions::default_hand_ahead_ns() {
  // 2 ms: a few credits per worker at 1,000 req/s, a few dozen at 20,000; what a stop withdraws.
  constexpr core::MonoNs kDefault = 2'000'000;
  const core::EnvInt us = core::env_int("INFERPERF_HAND_AHEAD_US", 0, 1'000'000);
  if (us.state == core::EnvInt::State::kInvalid) {
    spdlog::warn(
        "INFERPERF_HAND_AHEAD_US={} is not a number of microseconds in [0, 1000000]; "
        "using {} us",
        std::getenv("INFERPERF_HAND_AHEAD_US"), kDefault / 1000);
  }
  return us.valid() ? static_cast<core::MonoNs>(us.value) * 1000 : kDefault;
}

PhaseRunner::PhaseRunner(const core::Clock& clock, const core::RngFactory& rngs,
                         const records::Collector& collector, PhaseRunnerOptions options)
    : clock_(clock), rngs_(rngs), collector_(collector), options_(std::move(options)) {}

void PhaseRunner::stop() {
  core::MonoNs expected = 0;
  stop_ns_.compare_exchange_strong(expected, clock_.now_ns());
  stopped_.store(true);
  std::lock_guard lock(current_mu_);
  if (auto* loop = current_.load()) loop->stop();
}

void PhaseRunner::returned(std::span<const timing::ReturnedCredit> credits) {
  current_.load()->credits_returned(credits);
}

void PhaseRunner::first_token(std::int64_t credit_id) {
  current_.load()->first_token(credit_id);
}

std::vector<ui::PhaseProgress> PhaseRunner::progress() const {
  std::lock_guard lock(current_mu_);
  std::vector<ui::PhaseProgress> out;
  const core::MonoNs now = clock_.now_ns();
  for (const Track& t : tracks_) {
    ui::PhaseProgress p = t.view;
    if (!p.done) {
      if (const auto* loop = current_.load()) {
        // Credits held ahead by the workers are not sent yet.
        p.sent = loop->sent();
        p.in_flight = std::max<std::int64_t>(0, p.sent - loop->returned());
      }
    }
    p.elapsed_s = static_cast<double>((t.end_ns ? t.end_ns : now) - t.start_ns) / 1e9;
    out.push_back(std::move(p));
  }
  return out;
}

PhaseOutcome PhaseRunner::run(const timing::PhasePlan& pp, double grace_s,
                              worker::WorkerPool& pool) {
  const std::string name = records::to_string(pp.phase);
  // Named random streams: the same seed gives the same run, warmup or not.
  const std::string prefix = pp.phase == records::Phase::kWarmup ? "warmup." : "";
  const char* interval_stream = pp.pattern == timing::ArrivalPattern::kGamma
                                    ? "timing.request.gamma_interval"
                                    : "timing.request.poisson_interval";
  // Sharded rate runs: every shard draws the same arrival-to-shard assignment.
  timing::PhasePlan plan = pp;
  plan.shard_seed = rngs_.stream(prefix + "timing.request.shard"s)();
  plan.hand_ahead_ns = options_.hand_ahead_ns;
  timing::Scheduler sched(
      plan, options_.shapes,
      timing::ConversationSampler(options_.sampling, timing::root_indices(options_.shapes),
                                  rngs_.stream(prefix + "dataset.sampler"s)),
      rngs_.stream(prefix + interval_stream), rngs_.stream(prefix + "timing.request.cancellation"s),
      clock_.now_ns());
  // Handing credits out ahead, the issuer's wake-ups need no precision: the workers time sends.
  timing::PreciseWaiter waiter(sched.hand_ahead_ns() > 0 ? 0 : timing::PreciseWaiter::kSpinNs);
  timing::IssuerLoop loop(clock_, waiter, sched, pool);
  {
    std::lock_guard lock(current_mu_);
    current_.store(&loop);
    Track t;
    t.view.name = name;
    t.view.target_count = pp.request_count;
    t.view.duration_s = pp.duration_s;
    t.start_ns = sched.start_ns();
    tracks_.push_back(std::move(t));
  }
  if (stopped_.load()) loop.stop();
  AdaptiveFeed* adaptive = pp.phase == records::Phase::kProfiling ? options_.adaptive : nullptr;
  if (adaptive) sched.set_session_limit(adaptive->start(sched.start_ns()));
  spdlog::info("{}: {}, {} worker thread(s)", name, describe(pp), options_.workers);
  const auto window_start = std::chrono::steady_clock::now();
  const std::vector<worker::WorkerLoad> loads_before = pool.loads();
  const core::ProcessCpu cpu_before = core::process_cpu();
  const std::optional<std::int64_t> steal_before = core::host_steal_ns();
  std::int64_t issuer_cpu_ns = 0;
  pool.begin_phase();
  std::thread issuer_thread([&] {
    loop.run();
    issuer_cpu_ns = core::this_thread_cpu_ns();
  });
  std::atomic<bool> phase_done{false};
  bool adaptive_done = false;  // the watcher thread's
  // One watcher thread: the failure threshold on this phase's records.
  const std::int64_t completed0 = collector_.completed(), errors0 = collector_.errors();
  std::thread watcher([&] {
    while (!phase_done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (phase_done.load()) break;
      if (adaptive && !adaptive_done) {
        const AdaptiveFeed::Tick t = adaptive->tick(clock_.now_ns());
        if (t.new_limit) loop.set_session_limit(*t.new_limit);
        if (t.done) {
          adaptive_done = true;
          loop.stop();  // the sustain is over: what is in flight finishes
        }
      }
      const std::int64_t finished = collector_.completed() - completed0;
      const std::int64_t failed = collector_.errors() - errors0;
      if (options_.failed_request_threshold && !threshold_exceeded_.load() &&
          finished >= options_.threshold_arm_after &&
          static_cast<double>(failed) >
              *options_.failed_request_threshold * static_cast<double>(finished)) {
        threshold_exceeded_.store(true);
        spdlog::error(
            "{}: {} of {} finished requests failed, more than --failed-request-threshold {}; "
            "stopping and cancelling the {} in flight",
            name, failed, finished, *options_.failed_request_threshold,
            loop.sent() - loop.returned());
        stop();
        pool.cancel_all("stopped: failed requests exceeded --failed-request-threshold");
      }
    }
  });
  issuer_thread.join();
  if (sched.skipped_arrivals() > 0) {
    spdlog::warn(
        "{}: the issuer was stalled for more than 2 ms at times; {} scheduled arrival(s) were "
        "skipped rather than sent in a burst (the achieved rate is lower by that much)",
        name, sched.skipped_arrivals());
  }
  // The wait for what is in flight ends at the grace deadline: after the duration's last send
  // (`grace_s`), or after a stop() (`stop_grace_s`), whichever comes first. A stop may arrive
  // while waiting, so the wait is sliced.
  auto after = [](core::MonoNs from, double s) -> std::optional<core::MonoNs> {
    if (!std::isfinite(s)) return std::nullopt;
    return from + static_cast<core::MonoNs>(s * 1e9);
  };
  for (;;) {
    std::optional<core::MonoNs> deadline;
    if (pp.duration_s) deadline = after(loop.sending_end_ns(), grace_s);
    if (const core::MonoNs s = stop_ns_.load(); s > 0) {
      if (auto d = after(s, options_.stop_grace_s); d)
        deadline = deadline ? std::min(*deadline, *d) : *d;
    }
    const core::MonoNs slice = clock_.now_ns() + 100'000'000;
    if (loop.wait_all_returned(deadline ? std::min(*deadline, slice) : slice)) break;
    if (deadline && clock_.now_ns() >= *deadline) {
      spdlog::info("{} grace period over; cancelling {} request(s) still in flight", name,
                   loop.sent() - loop.returned());
      // Credits still held ahead on a late worker are withdrawn first, due or not (posted before
      // the cancellation, so each worker gives them back before it cancels), never sent after it.
      loop.stop(/*everything=*/true);
      pool.cancel_all("benchmark grace period expired");
      loop.wait_all_returned(std::nullopt);
      break;
    }
  }
  phase_done.store(true);
  watcher.join();
  if (adaptive) adaptive->finish(clock_.now_ns(), stopped_.load() ? "stopped" : "budget_exhausted");
  PhaseOutcome out{sched.start_ns(), clock_.now_ns(), loop.dropped_arrivals(), {}};
  out.load = measure_load(window_start, loads_before, cpu_before, pool.loads(), issuer_cpu_ns,
                          steal_before);
  {
    std::lock_guard lock(current_mu_);
    current_.store(nullptr);
    Track& t = tracks_.back();
    t.view.sent = loop.issued();
    t.view.in_flight = loop.issued() - loop.returned();
    t.view.done = true;
    t.end_ns = out.end_ns;
  }
  return out;
}

}  // namespace inferperf::app
