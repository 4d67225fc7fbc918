// Everything scraped from one Prometheus endpoint during a run, stored compactly: each series is
// interned once and every scrape keeps only (series, value) pairs, so an hour at 3 scrapes a
// second of a few hundred series stays in the tens of megabytes.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "telemetry/prometheus.hpp"

namespace inferperf::telemetry {

struct SeriesInfo {
  std::string family;  // metric name as the page declares it
  MetricType type = MetricType::kUntyped;
  std::string help;
  Labels labels;
  std::vector<double> bounds;  // histogram `le` bounds, ascending (+Inf last)
};

struct HistogramValue {
  std::vector<double> cumulative;  // per bound of the series
  double sum = 0.0;
  double count = 0.0;
};

struct Scrape {
  std::int64_t sent_ns = 0;  // monotonic, request written
  std::int64_t done_ns = 0;  // monotonic, whole answer read
  std::vector<std::pair<int, double>> values;
  std::vector<std::pair<int, HistogramValue>> histograms;
};

class ScrapeLog {
 public:
  explicit ScrapeLog(std::string url = {}) : url_(std::move(url)) {}

  // Stores the page's counters, gauges, untyped values and histograms (summaries, `_created`
  // series and samples whose value is NaN or infinite are skipped).
  void add(const Page& page, std::int64_t sent_ns, std::int64_t done_ns);

  const std::string& url() const { return url_; }
  const std::vector<SeriesInfo>& series() const { return series_; }
  const std::vector<Scrape>& scrapes() const { return scrapes_; }

 private:
  int intern(const Family& f, const Labels& labels, const std::vector<double>& bounds);

  std::string url_;
  std::vector<SeriesInfo> series_;
  std::map<std::string, int> index_;
  std::vector<Scrape> scrapes_;
};

}  // namespace inferperf::telemetry
