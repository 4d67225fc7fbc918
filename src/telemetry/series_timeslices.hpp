// Per-series time slices of server metrics (`--slice-duration`), as AIPerf writes them under each
// series of server_metrics_export.json: the profiling window cut into fixed slices from its start,
// the last one shorter (and marked incomplete) when the window does not divide evenly.
//
// Gauges (and unknown-type values) are summarised over the samples taken inside each slice.
// Counters and histograms are attributed by change: the step from one scrape to the next belongs
// to the slice in which the later scrape finished, the baseline being the window's baseline (the
// last scrape at or before its start), and a scrape after the window end (the final round) counts
// in the last slice; so the slices add up to the window's totals.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "telemetry/scrape_log.hpp"
#include "telemetry/window_stats.hpp"

namespace inferperf::telemetry {

struct Slice {
  std::int64_t start_ns = 0;  // monotonic
  std::int64_t end_ns = 0;
  bool complete = true;  // false: cut short by the window's end
};

// The window cut into slices of slice_ns (> 0); at most max_slices (the rest are dropped, so a
// tiny --slice-duration over a long run cannot exhaust memory).
std::vector<Slice> slices_of(const Window& w, std::int64_t slice_ns,
                             std::size_t max_slices = 100000);

struct GaugeSlice {
  Slice slice;
  double avg = 0.0, min = 0.0, max = 0.0;
};
struct CounterSlice {
  Slice slice;
  double total = 0.0;
  double rate = 0.0;  // total / slice seconds
};
struct HistogramSlice {
  Slice slice;
  double count = 0.0, sum = 0.0;
  std::vector<std::pair<double, double>> buckets;  // (le, cumulative delta count)
};

// Slices without a sample (gauges) or without any scrape of the series (counters, histograms) are
// left out; a counter slice whose scrapes saw no change has total 0.
std::vector<GaugeSlice> gauge_slices(const ScrapeLog& log, int series, const Window& w,
                                     const std::vector<Slice>& slices);
std::vector<CounterSlice> counter_slices(const ScrapeLog& log, int series, const Window& w,
                                         const std::vector<Slice>& slices);
std::vector<HistogramSlice> histogram_slices(const ScrapeLog& log, int series, const Window& w,
                                             const std::vector<Slice>& slices);

}  // namespace inferperf::telemetry
