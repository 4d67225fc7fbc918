#include "telemetry/series_timeslices.hpp"

#include <algorithm>
#include <cmath>

namespace inferperf::telemetry {

namespace {

// Slice of time t (at or after the window start); the last slice takes everything past its
// start. Slices are equally long but the last, so this is a division, not a search (an hour in
// 1 s slices is 3600 of them, for every scrape of every series).
std::size_t slice_index_at(const std::vector<Slice>& slices, std::int64_t t) {
  const std::int64_t len = slices.front().end_ns - slices.front().start_ns;
  if (t <= slices.front().start_ns || len <= 0) return 0;
  const auto k = static_cast<std::size_t>((t - slices.front().start_ns) / len);
  return std::min(k, slices.size() - 1);
}

// A change at time t has a slice unless the slices were capped short of the window's end.
bool slice_covers(const std::vector<Slice>& slices, const Window& w, std::int64_t t) {
  return slices.back().end_ns >= w.end_ns || t < slices.back().end_ns;
}

// The last scrape finished at or before the window start, else the first (as window_stats).
std::size_t slice_baseline(const std::vector<Scrape>& scrapes, const Window& w) {
  std::size_t b = 0;
  for (std::size_t i = 0; i < scrapes.size(); ++i)
    if (scrapes[i].done_ns <= w.start_ns) b = i;
  return b;
}

const double* slice_value(const Scrape& s, int series) {
  for (const auto& [id, v] : s.values)
    if (id == series) return &v;
  return nullptr;
}

const HistogramValue* slice_histogram(const Scrape& s, int series) {
  for (const auto& [id, v] : s.histograms)
    if (id == series) return &v;
  return nullptr;
}

double slice_seconds(const Slice& s) {
  return static_cast<double>(s.end_ns - s.start_ns) / 1e9;
}

}  // namespace

std::vector<Slice> slices_of(const Window& w, std::int64_t slice_ns, std::size_t max_slices) {
  std::vector<Slice> out;
  if (slice_ns <= 0 || w.end_ns <= w.start_ns) return out;
  for (std::int64_t start = w.start_ns; start < w.end_ns && out.size() < max_slices;
       start += slice_ns) {
    Slice s;
    s.start_ns = start;
    s.end_ns = std::min(start + slice_ns, w.end_ns);
    s.complete = s.end_ns - s.start_ns == slice_ns;
    out.push_back(s);
  }
  return out;
}

std::vector<GaugeSlice> gauge_slices(const ScrapeLog& log, int series, const Window& w,
                                     const std::vector<Slice>& slices) {
  std::vector<GaugeSlice> out;
  if (slices.empty()) return out;
  std::vector<std::vector<double>> values(slices.size());
  for (const auto& s : log.scrapes()) {
    if (!w.contains(s.done_ns) || !slice_covers(slices, w, s.done_ns)) continue;
    if (const double* v = slice_value(s, series); v && std::isfinite(*v))
      values[slice_index_at(slices, s.done_ns)].push_back(*v);
  }
  for (std::size_t k = 0; k < slices.size(); ++k) {
    const auto& v = values[k];
    if (v.empty()) continue;
    GaugeSlice g;
    g.slice = slices[k];
    double sum = 0.0;
    for (double x : v) sum += x;
    g.avg = sum / static_cast<double>(v.size());
    g.min = *std::min_element(v.begin(), v.end());
    g.max = *std::max_element(v.begin(), v.end());
    out.push_back(g);
  }
  return out;
}

std::vector<CounterSlice> counter_slices(const ScrapeLog& log, int series, const Window& w,
                                         const std::vector<Slice>& slices) {
  std::vector<CounterSlice> out;
  const auto& scrapes = log.scrapes();
  if (slices.empty() || scrapes.empty()) return out;
  std::vector<double> totals(slices.size(), 0.0);
  std::vector<bool> seen(slices.size(), false);
  const std::size_t b = slice_baseline(scrapes, w);
  std::optional<double> prev;
  // A series missing from a real baseline was created inside the window: it counted from zero.
  if (scrapes[b].done_ns <= w.start_ns && !slice_value(scrapes[b], series)) prev = 0.0;
  for (std::size_t i = b; i < scrapes.size(); ++i) {
    const double* v = slice_value(scrapes[i], series);
    if (!v || !std::isfinite(*v)) continue;
    if (prev && scrapes[i].done_ns > w.start_ns && slice_covers(slices, w, scrapes[i].done_ns)) {
      const std::size_t k = slice_index_at(slices, scrapes[i].done_ns);
      totals[k] += *v >= *prev ? *v - *prev : *v;  // a reset restarts from zero
      seen[k] = true;
    }
    prev = *v;
  }
  for (std::size_t k = 0; k < slices.size(); ++k) {
    if (!seen[k]) continue;
    CounterSlice c;
    c.slice = slices[k];
    c.total = totals[k];
    c.rate = totals[k] / slice_seconds(slices[k]);
    out.push_back(c);
  }
  return out;
}

std::vector<HistogramSlice> histogram_slices(const ScrapeLog& log, int series, const Window& w,
                                             const std::vector<Slice>& slices) {
  std::vector<HistogramSlice> out;
  const auto& scrapes = log.scrapes();
  if (slices.empty() || scrapes.empty()) return out;
  const auto& bounds = log.series()[static_cast<std::size_t>(series)].bounds;
  const std::size_t n = bounds.size();
  std::vector<HistogramSlice> acc(slices.size());
  std::vector<bool> seen(slices.size(), false);
  for (std::size_t k = 0; k < slices.size(); ++k) {
    acc[k].slice = slices[k];
    for (double le : bounds) acc[k].buckets.emplace_back(le, 0.0);
  }
  const std::size_t b = slice_baseline(scrapes, w);
  const HistogramValue zero{std::vector<double>(n, 0.0), 0.0, 0.0};
  const HistogramValue* prev = nullptr;
  if (scrapes[b].done_ns <= w.start_ns && !slice_histogram(scrapes[b], series)) prev = &zero;
  for (std::size_t i = b; i < scrapes.size(); ++i) {
    const HistogramValue* h = slice_histogram(scrapes[i], series);
    if (!h || h->cumulative.size() != n) continue;
    if (prev && scrapes[i].done_ns > w.start_ns && slice_covers(slices, w, scrapes[i].done_ns)) {
      const std::size_t k = slice_index_at(slices, scrapes[i].done_ns);
      bool reset = h->count < prev->count;
      for (std::size_t q = 0; q < n && !reset; ++q) reset = h->cumulative[q] < prev->cumulative[q];
      for (std::size_t q = 0; q < n; ++q)
        acc[k].buckets[q].second +=
            reset ? h->cumulative[q] : h->cumulative[q] - prev->cumulative[q];
      acc[k].sum += reset ? h->sum : h->sum - prev->sum;
      acc[k].count += reset ? h->count : h->count - prev->count;
      seen[k] = true;
    }
    prev = h;
  }
  for (std::size_t k = 0; k < slices.size(); ++k)
    if (seen[k]) out.push_back(std::move(acc[k]));
  return out;
}

}  // namespace inferperf::telemetry
