#include "app/profile/live_view.hpp"

namespace inferperf::app {

config::UiType choose_ui(bool given, config::UiType ui, bool verbose, bool stdout_terminal) {
  // A full-screen view on a pipe would fill it with escape codes: fall back to simple
  // (docs/decisions.md, The live view).
  if (given)
    return ui == config::UiType::kDashboard && !stdout_terminal ? config::UiType::kSimple : ui;
  if (!stdout_terminal) return config::UiType::kNone;
  return verbose ? config::UiType::kSimple : config::UiType::kDashboard;
}

ui::ProgressSnapshot LiveView::snapshot() {
  ui::ProgressSnapshot s;
  s.phases = phases_.progress();
  records::Phase current = records::Phase::kProfiling;
  for (auto& p : s.phases) {
    const records::Phase phase = p.name == records::to_string(records::Phase::kWarmup)
                                     ? records::Phase::kWarmup
                                     : records::Phase::kProfiling;
    current = phase;
    const auto c = stats_.counts(phase);
    p.completed = c.completed;
    p.errors = c.errors;
    if (p.elapsed_s > 0) {
      p.requests_per_s = static_cast<double>(c.completed) / p.elapsed_s;
      p.output_tokens_per_s = static_cast<double>(c.output_tokens) / p.elapsed_s;
    }
  }
  if (!s.phases.empty()) {
    s.requests_per_s = s.phases.back().requests_per_s;
    s.output_tokens_per_s = s.phases.back().output_tokens_per_s;
  }
  s.ttft_ms = stats_.ttft_ms(current);
  s.itl_ms = stats_.itl_ms(current);
  s.latency_ms = stats_.latency_ms(current);
  s.schedule_lag_p99_ms = stats_.schedule_lag_p99_ms(current);
  s.throughput_history = stats_.throughput_history(clock_.now_ns(), 200);
  s.errors_by_type = stats_.errors_by_type();

  // Worker CPU share and loop lag over the interval since the previous snapshot.
  const auto now = std::chrono::steady_clock::now();
  std::vector<worker::WorkerLoad> loads = pool_.loads();
  const double dt = std::chrono::duration<double>(now - previous_at_).count();
  for (std::size_t i = 0; i < loads.size(); ++i) {
    ui::WorkerHealthView w;
    w.id = static_cast<int>(i);
    if (i < previous_.size() && dt > 0 && loads[i].cpu_ns && previous_[i].cpu_ns) {
      w.cpu_percent =
          static_cast<double>(*loads[i].cpu_ns - *previous_[i].cpu_ns) / 1e9 / dt * 100.0;
      w.loop_lag_p99_ms = ui::percentiles_ms(loads[i].loop_lag.since(previous_[i].loop_lag)).p99;
    } else {
      w.loop_lag_p99_ms = ui::percentiles_ms(loads[i].loop_lag).p99;
    }
    s.workers.push_back(w);
  }
  previous_ = std::move(loads);
  previous_at_ = now;

  if (telemetry_) s.telemetry = telemetry_->live_lines();
  if (log_) s.log = log_->tail(50);
  return s;
}

}  // namespace inferperf::app
