#include "telemetry/scrape_log.hpp"

#include <cmath>

namespace inferperf::telemetry {

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string key_of(const std::string& family, const Labels& labels, std::size_t n_bounds) {
  std::string k = family;
  for (const auto& [name, value] : labels) {
    k += '\x1f';
    k += name;
    k += '=';
    k += value;
  }
  if (n_bounds) k += "\x1e" + std::to_string(n_bounds);
  return k;
}

}  // namespace

int ScrapeLog::intern(const Family& f, const Labels& labels, const std::vector<double>& bounds) {
  const std::string key = key_of(f.name, labels, bounds.size());
  auto it = index_.find(key);
  if (it != index_.end() && series_[static_cast<std::size_t>(it->second)].bounds == bounds)
    return it->second;
  SeriesInfo info;
  info.family = f.name;
  info.type = f.type;
  info.help = f.help;
  info.labels = labels;
  info.bounds = bounds;
  const int id = static_cast<int>(series_.size());
  series_.push_back(std::move(info));
  index_[key] = id;  // bounds that changed replace the old series for later scrapes
  return id;
}

void ScrapeLog::add(const Page& page, std::int64_t sent_ns, std::int64_t done_ns) {
  Scrape s;
  s.sent_ns = sent_ns;
  s.done_ns = done_ns;
  for (const auto& f : page.families) {
    if (f.type == MetricType::kSummary) continue;
    if (f.type == MetricType::kHistogram) {
      for (auto& h : histograms_of(f)) {
        HistogramValue v;
        std::vector<double> bounds;
        for (const auto& [le, c] : h.buckets) {
          bounds.push_back(le);
          v.cumulative.push_back(c);
        }
        v.sum = h.sum;
        v.count = h.count;
        if (!std::isfinite(v.sum) || !std::isfinite(v.count)) continue;
        s.histograms.emplace_back(intern(f, h.labels, bounds), std::move(v));
      }
      continue;
    }
    for (const auto& sample : f.samples) {
      if (ends_with(sample.name, "_created")) continue;
      // NaN (SGLang's idle ratios) or an infinity is no reading: skipping the one sample keeps
      // the rest of the scrape, and keeps a NaN (never equal to itself) from making every
      // scrape look like an update.
      if (!std::isfinite(sample.value)) continue;
      s.values.emplace_back(intern(f, sample.labels, {}), sample.value);
    }
  }
  scrapes_.push_back(std::move(s));
}

}  // namespace inferperf::telemetry
