#include "telemetry/window_stats.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>

namespace inferperf::telemetry {

namespace {

// Index of the baseline scrape: the last one finished at or before the window start, else the
// first one.
std::size_t baseline_index(const std::vector<Scrape>& scrapes, const Window& w) {
  std::size_t b = 0;
  for (std::size_t i = 0; i < scrapes.size(); ++i) {
    if (scrapes[i].done_ns <= w.start_ns) b = i;
  }
  return b;
}

const double* value_in(const Scrape& s, int series) {
  for (const auto& [id, v] : s.values)
    if (id == series) return &v;
  return nullptr;
}

const HistogramValue* histogram_in(const Scrape& s, int series) {
  for (const auto& [id, v] : s.histograms)
    if (id == series) return &v;
  return nullptr;
}

double delta(double from, double to) {
  return to >= from ? to - from : to;
}  // reset: restart

}  // namespace

std::optional<core::Stats> gauge_stats(const ScrapeLog& log, int series, const Window& w) {
  std::vector<double> values;
  for (const auto& s : log.scrapes()) {
    if (!w.contains(s.done_ns)) continue;
    if (const double* v = value_in(s, series); v && std::isfinite(*v)) values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  return core::compute_stats(std::move(values));
}

std::optional<CounterStats> counter_stats(const ScrapeLog& log, int series, const Window& w) {
  const auto& scrapes = log.scrapes();
  if (scrapes.empty()) return std::nullopt;
  const std::size_t b = baseline_index(scrapes, w);
  std::optional<double> base, last;
  // A series missing from a real baseline (one taken before the window) was created by its first
  // use inside the window: it counted from zero.
  if (scrapes[b].done_ns <= w.start_ns && !value_in(scrapes[b], series)) base = last = 0.0;
  std::int64_t last_t = scrapes[b].done_ns;
  std::vector<double> rates;
  for (std::size_t i = b; i < scrapes.size(); ++i) {
    const double* v = value_in(scrapes[i], series);
    if (!v || !std::isfinite(*v)) continue;
    const std::int64_t t = scrapes[i].done_ns;
    if (!base) {
      base = *v;
    } else if (t <= w.end_ns && t > last_t) {
      rates.push_back(delta(*last, *v) / (static_cast<double>(t - last_t) / 1e9));
    }
    if (last && *v < *last) {
      // A reset: what was counted before it still happened.
      *base -= *last;
    }
    last = *v;
    last_t = t;
  }
  if (!base) return std::nullopt;
  CounterStats c;
  c.total = *last - *base;
  c.rate = w.seconds() > 0 ? c.total / w.seconds() : 0.0;
  c.interval_rates = core::compute_stats(std::move(rates));
  return c;
}

double estimate_quantile(const std::vector<std::pair<double, double>>& cumulative, double q) {
  if (cumulative.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double total = cumulative.back().second;
  if (total <= 0) return std::numeric_limits<double>::quiet_NaN();
  const double rank = q * total;
  double prev_bound = 0.0, prev_count = 0.0;
  double largest_finite = 0.0;
  for (const auto& [le, c] : cumulative)
    if (std::isfinite(le)) largest_finite = le;
  for (std::size_t i = 0; i < cumulative.size(); ++i) {
    const auto [le, c] = cumulative[i];
    if (c >= rank && c > prev_count) {
      if (!std::isfinite(le)) return largest_finite;
      const double lower = i == 0 ? std::min(0.0, le) : prev_bound;
      return lower + (le - lower) * (rank - prev_count) / (c - prev_count);
    }
    prev_bound = le;
    prev_count = c;
  }
  return largest_finite;
}

std::optional<HistogramStats> histogram_stats(const ScrapeLog& log, int series, const Window& w) {
  const auto& scrapes = log.scrapes();
  if (scrapes.empty()) return std::nullopt;
  const auto& bounds = log.series()[static_cast<std::size_t>(series)].bounds;
  const std::size_t n = bounds.size();
  const std::size_t b = baseline_index(scrapes, w);
  // Deltas summed scrape to scrape, so a reset anywhere (count or any bucket going down) restarts
  // that step from zero instead of producing negative buckets.
  std::vector<double> cumulative(n, 0.0);
  double sum = 0.0, count = 0.0;
  const HistogramValue* prev = nullptr;
  HistogramValue zero{std::vector<double>(n, 0.0), 0.0, 0.0};
  if (scrapes[b].done_ns <= w.start_ns && !histogram_in(scrapes[b], series)) prev = &zero;
  bool seen = prev != nullptr;
  for (std::size_t i = b; i < scrapes.size(); ++i) {
    const HistogramValue* h = histogram_in(scrapes[i], series);
    if (!h || h->cumulative.size() != n || !std::isfinite(h->count) || !std::isfinite(h->sum))
      continue;
    seen = true;
    if (!prev) {
      prev = h;
      continue;
    }
    bool reset = h->count < prev->count;
    for (std::size_t k = 0; k < n && !reset; ++k) reset = h->cumulative[k] < prev->cumulative[k];
    for (std::size_t k = 0; k < n; ++k)
      cumulative[k] += reset ? h->cumulative[k] : h->cumulative[k] - prev->cumulative[k];
    sum += reset ? h->sum : h->sum - prev->sum;
    count += reset ? h->count : h->count - prev->count;
    prev = h;
  }
  if (!seen) return std::nullopt;
  HistogramStats out;
  out.count = count;
  out.sum = sum;
  out.avg = count > 0 ? sum / count : 0.0;
  out.count_rate = w.seconds() > 0 ? count / w.seconds() : 0.0;
  out.sum_rate = w.seconds() > 0 ? sum / w.seconds() : 0.0;
  for (std::size_t k = 0; k < n; ++k) out.buckets.emplace_back(bounds[k], cumulative[k]);
  for (std::size_t i = 0; i < core::kPercentiles.size(); ++i) {
    out.p[i] = estimate_quantile(out.buckets, core::kPercentiles[i] / 100.0);
  }
  return out;
}

std::optional<GpuMetricSummary> gpu_metric_summary(const std::vector<const GpuSample*>& samples,
                                                   GpuMetric metric, const Window& w) {
  std::vector<double> values;
  for (const auto* s : samples) {
    if (!w.contains(s->mono_ns)) continue;
    if (const auto& v = (*s)[metric]; v && std::isfinite(*v)) values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  GpuMetricSummary out;
  out.counter = info(metric).counter;
  out.samples = static_cast<std::int64_t>(values.size());
  if (out.counter) {
    out.delta = delta(values.front(), values.back());
  } else {
    out.stats = core::compute_stats(std::move(values));
  }
  return out;
}

GpuTotals gpu_totals(const std::vector<GpuSample>& samples, const Window& w) {
  std::map<std::pair<std::string, int>, std::vector<const GpuSample*>> by_gpu;
  for (const auto& s : samples) by_gpu[{s.source, s.gpu.index}].push_back(&s);
  GpuTotals t;
  for (const auto& [gpu, list] : by_gpu) {
    if (auto p = gpu_metric_summary(list, GpuMetric::kPowerUsage, w))
      t.total_gpu_power_w = t.total_gpu_power_w.value_or(0.0) + p->stats.avg;
    if (auto e = gpu_metric_summary(list, GpuMetric::kEnergyConsumption, w))
      t.total_gpu_energy_j = t.total_gpu_energy_j.value_or(0.0) + e->delta * 1e6;  // MJ -> J
  }
  return t;
}

}  // namespace inferperf::telemetry
