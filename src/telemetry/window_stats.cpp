#include "telemetry/window_stats.hpp"

#include <cmath>
#include <limits>

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

double delta(double from, double to) { return to >= from ? to - from : to; }  // reset: restart

}  // namespace

std::optional<metrics::Stats> gauge_stats(const ScrapeLog& log, int series, const Window& w) {
  std::vector<double> values;
  for (const auto& s : log.scrapes()) {
    if (!w.contains(s.done_ns)) continue;
    if (const double* v = value_in(s, series); v && std::isfinite(*v)) values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  return metrics::compute_stats(std::move(values));
}

std::optional<CounterStats> counter_stats(const ScrapeLog& log, int series, const Window& w) {
  const auto& scrapes = log.scrapes();
  if (scrapes.empty()) return std::nullopt;
  std::optional<double> base, last;
  std::int64_t last_t = 0;
  std::vector<double> rates;
  for (std::size_t i = baseline_index(scrapes, w); i < scrapes.size(); ++i) {
    const double* v = value_in(scrapes[i], series);
    if (!v) continue;
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
  c.interval_rates = metrics::compute_stats(std::move(rates));
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
  const HistogramValue* base = nullptr;
  const HistogramValue* last = nullptr;
  for (std::size_t i = baseline_index(scrapes, w); i < scrapes.size(); ++i) {
    const HistogramValue* h = histogram_in(scrapes[i], series);
    if (!h) continue;
    if (!base) base = h;
    last = h;
  }
  if (!base || base->cumulative.size() != last->cumulative.size()) return std::nullopt;
  const auto& bounds = log.series()[static_cast<std::size_t>(series)].bounds;
  const bool reset = last->count < base->count;
  HistogramStats h;
  h.count = reset ? last->count : last->count - base->count;
  h.sum = reset ? last->sum : last->sum - base->sum;
  h.avg = h.count > 0 ? h.sum / h.count : 0.0;
  h.count_rate = w.seconds() > 0 ? h.count / w.seconds() : 0.0;
  h.sum_rate = w.seconds() > 0 ? h.sum / w.seconds() : 0.0;
  for (std::size_t i = 0; i < bounds.size() && i < last->cumulative.size(); ++i) {
    h.buckets.emplace_back(bounds[i], reset ? last->cumulative[i]
                                            : last->cumulative[i] - base->cumulative[i]);
  }
  for (std::size_t i = 0; i < metrics::kPercentiles.size(); ++i) {
    h.p[i] = estimate_quantile(h.buckets, metrics::kPercentiles[i] / 100.0);
  }
  return h;
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
  if (out.counter) {
    out.delta = delta(values.front(), values.back());
  } else {
    out.stats = metrics::compute_stats(std::move(values));
  }
  return out;
}

}  // namespace inferperf::telemetry
