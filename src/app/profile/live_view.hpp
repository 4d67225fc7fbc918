// LiveView: builds the ui::ProgressSnapshot a front end draws, on the UI thread, from what the
// run already publishes without locks: the phase runner's issued/returned counters, the
// collector-fed ui::LiveStats, the workers' CPU clocks and loop-lag histograms
// (WorkerPool::loads()), the telemetry collector's last round and the log pane's buffer.
#pragma once
#include <chrono>
#include <memory>
#include <vector>

#include "app/profile/phase_runner.hpp"
#include "config/run_config.hpp"
#include "telemetry/collector.hpp"
#include "ui/live_stats.hpp"
#include "ui/log_buffer.hpp"
#include "ui/progress_snapshot.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::app {

// Which live view a run shows (docs/decisions.md, The live view): an explicit --ui-type wins (but
// the dashboard falls back to simple when stdout is not a terminal); otherwise none when stdout is
// not a terminal, simple with -v/-vv (so the log stays readable), else the dashboard.
config::UiType choose_ui(bool given, config::UiType ui, bool verbose, bool stdout_terminal);

class LiveView {
 public:
  LiveView(const core::Clock& clock, const PhaseRunner& phases, const ui::LiveStats& stats,
           const worker::WorkerPool& pool, const telemetry::TelemetryCollector* telemetry,
           std::shared_ptr<ui::LogBuffer> log)
      : clock_(clock),
        phases_(phases),
        stats_(stats),
        pool_(pool),
        telemetry_(telemetry),
        log_(std::move(log)) {}

  // Only one thread calls this (it keeps the previous worker readings for CPU shares).
  ui::ProgressSnapshot snapshot();

 private:
  const core::Clock& clock_;
  const PhaseRunner& phases_;
  const ui::LiveStats& stats_;
  const worker::WorkerPool& pool_;
  const telemetry::TelemetryCollector* telemetry_;
  std::shared_ptr<ui::LogBuffer> log_;
  std::vector<worker::WorkerLoad> previous_;
  std::chrono::steady_clock::time_point previous_at_{};
};

}  // namespace inferperf::app
