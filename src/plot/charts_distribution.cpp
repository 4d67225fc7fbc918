// Per-request distributions from profile_export.jsonl, every run overlaid on one shared axis.
#include <functional>

#include "plot/charts.hpp"
#include "plot/series.hpp"

namespace inferperf::plot {

namespace {

constexpr std::size_t kBins = 40;

struct Field {
  const char* key;   // chart name prefix
  const char* what;  // in titles
  const char* unit;
  double RequestRow::*value;
  bool with_cdf;
  bool whole_numbers;
};

std::vector<double> values_of(const RunData& run, double RequestRow::*field) {
  std::vector<double> out;
  if (!run.requests) return out;
  for (const auto& r : *run.requests)
    if (!r.error) out.push_back(r.*field);
  return out;
}

}  // namespace

void add_distribution_charts(const std::vector<RunSeries>& runs, ChartSet& set) {
  const Field fields[] = {
      {"ttft", "Time to first token", "ms", &RequestRow::ttft_ms, true, false},
      {"itl", "Inter-token latency (per request)", "ms", &RequestRow::itl_ms, true, false},
      {"request_latency", "Request latency", "ms", &RequestRow::latency_ms, true, false},
      {"isl", "Input sequence length", "tokens", &RequestRow::isl, false, true},
      {"osl", "Output sequence length", "tokens", &RequestRow::osl, false, true},
  };
  for (const auto& f : fields) {
    std::vector<std::vector<double>> sets;
    for (const auto& r : runs) sets.push_back(values_of(*r.run, f.value));
    const auto edges = shared_bin_edges(sets, kBins, f.whole_numbers);
    const std::string axis = std::string(f.what) + " (" + f.unit + ")";

    Chart hist;
    hist.name = std::string(f.key) + "_histogram";
    hist.title = std::string(f.what) + ": distribution";
    hist.x_label = axis;
    hist.y_label = "Requests";
    hist.caption = "Successful requests per bin; all runs share the bins, their bars side by side.";
    hist.y_from_zero = true;
    for (std::size_t i = 0; i < runs.size() && edges.size() > 1; ++i) {
      Series s;
      s.title = runs[i].label;
      s.style = Style::kBoxes;
      s.color = runs[i].color;
      // Each run its own slice of the bin, so no run's bar hides another's.
      const double slice = (edges[1] - edges[0]) / static_cast<double>(runs.size());
      s.box_width = slice;
      const auto counts = histogram(sets[i], edges);
      for (std::size_t b = 0; b < counts.size(); ++b) {
        if (counts[b] == 0) continue;
        s.x.push_back(edges[b] + slice * (static_cast<double>(i) + 0.5));
        s.y.push_back(counts[b]);
      }
      hist.series.push_back(std::move(s));
    }
    set.add(std::move(hist), kNoRecords);

    if (!f.with_cdf) continue;
    Chart c;
    c.name = std::string(f.key) + "_cdf";
    c.title = std::string(f.what) + ": cumulative distribution";
    c.x_label = axis;
    c.y_label = "Requests at or below (%)";
    c.caption = "Share of successful requests at or below each value (read p50, p90, p99 off it).";
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const auto curve = cdf(sets[i]);
      Series s;
      s.title = runs[i].label;
      s.style = Style::kSteps;
      s.color = runs[i].color;
      s.x = curve.x;
      s.y = curve.y;
      c.series.push_back(std::move(s));
    }
    set.add(std::move(c), kNoRecords);
  }
}

}  // namespace inferperf::plot
