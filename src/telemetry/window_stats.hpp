// Statistics of scraped series over the profiling window, as AIPerf summarises them: gauges over
// their samples, counters and histograms as the change from the baseline (the last scrape at or
// before the window start) to the final scrape, with resets treated as restarts from zero.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/statistics.hpp"
#include "telemetry/gpu_sample.hpp"
#include "telemetry/scrape_log.hpp"

namespace inferperf::telemetry {

struct Window {
  std::int64_t start_ns = 0;  // monotonic
  std::int64_t end_ns = 0;
  double seconds() const { return static_cast<double>(end_ns - start_ns) / 1e9; }
  bool contains(std::int64_t t) const { return t >= start_ns && t <= end_ns; }
};

struct CounterStats {
  double total = 0.0;          // final − baseline
  double rate = 0.0;           // total / window seconds
  core::Stats interval_rates;  // per-scrape-interval rates inside the window
};

struct HistogramStats {
  double count = 0.0, sum = 0.0, avg = 0.0, count_rate = 0.0, sum_rate = 0.0;
  std::array<double, 9> p{};  // estimated, core::kPercentiles order; NaN when count is 0
  std::vector<std::pair<double, double>> buckets;  // (le, cumulative delta count)
};

// nullopt when the series has no sample in the window.
std::optional<core::Stats> gauge_stats(const ScrapeLog& log, int series, const Window& w);
std::optional<CounterStats> counter_stats(const ScrapeLog& log, int series, const Window& w);
std::optional<HistogramStats> histogram_stats(const ScrapeLog& log, int series, const Window& w);

// Linear interpolation inside cumulative buckets (Prometheus histogram_quantile); q in [0, 1].
// The +Inf bucket answers the largest finite bound.
double estimate_quantile(const std::vector<std::pair<double, double>>& cumulative, double q);

// One GPU metric over the window: gauges get full statistics, counters `avg` = last − first.
struct GpuMetricSummary {
  bool counter = false;
  core::Stats stats;         // gauges
  double delta = 0.0;        // counters
  std::int64_t samples = 0;  // readings in the window (AIPerf's `count` of the stat block)
};
std::optional<GpuMetricSummary> gpu_metric_summary(const std::vector<const GpuSample*>& samples,
                                                   GpuMetric metric, const Window& w);

// The inputs of AIPerf's derived GPU metrics (`total_gpu_power`, `total_gpu_energy`, and from
// them `output_tokens_per_joule`, `energy_per_user`), over the profiling window. A GPU is one
// (source, gpu index) pair. nullopt when no GPU reported the reading inside the window.
struct GpuTotals {
  // Sum over GPUs of each GPU's average gpu_power_usage, W.
  std::optional<double> total_gpu_power_w;
  // Sum over GPUs of each GPU's energy_consumption change (last − first sample in the window,
  // a reset restarting from zero), J.
  std::optional<double> total_gpu_energy_j;
};
GpuTotals gpu_totals(const std::vector<GpuSample>& samples, const Window& w);

}  // namespace inferperf::telemetry
