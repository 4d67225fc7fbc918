// GPU telemetry (gpu_telemetry_export.jsonl) and server metrics (server_metrics_export.jsonl)
// over the run's time axis.
#include <cctype>
#include <map>

#include "plot/charts.hpp"
#include "plot/series.hpp"

namespace inferperf::plot {

namespace {

constexpr std::size_t kMaxServerCharts = 6;

std::string file_stem(const std::string& family) {
  std::string out;
  for (char c : family) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

std::vector<Series> gpu_series(const RunSeries& r, const std::string& tag, bool several_runs) {
  std::vector<Series> out;
  const auto it = r.run->gpu.find(tag);
  if (it == r.run->gpu.end()) return out;
  std::size_t k = 0;
  for (const auto& ts : it->second) {
    Series s;
    s.title = several_runs ? r.label + ": " + ts.name : ts.name;
    s.style = Style::kLines;
    s.color = r.color + k++;
    s.x = ts.t_s;
    s.y = ts.value;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

void add_telemetry_charts(const std::vector<RunSeries>& runs, ChartSet& set) {
  const bool several = runs.size() > 1;
  const char* no_gpu = "no run has GPU telemetry (gpu_telemetry_export.jsonl)";
  {
    Chart c;
    c.name = "gpu_utilization_and_throughput_over_time";
    c.title = "GPU utilization and output token throughput";
    c.x_label = "Time (s since the first request)";
    c.y_label = "GPU utilization (%)";
    c.y2_label = "Output tokens/sec (dashed)";
    c.caption =
        "GPU utilization per GPU (solid, left axis) and the run's dispersed output token "
        "throughput (dashed, right axis).";
    c.y_from_zero = true;
    bool any_gpu = false;
    for (const auto& r : runs) {
      auto gs = gpu_series(r, "gpu_utilization", several);
      if (gs.empty()) continue;
      any_gpu = true;
      for (auto& s : gs) c.series.push_back(std::move(s));
      if (r.run->requests) {
        const auto curve =
            dispersed_throughput(*r.run->requests, throughput_bin_seconds(*r.run->requests, 50));
        Series t;
        t.title = r.label + " throughput";
        t.style = Style::kSteps;
        t.dashed = true;
        t.right_axis = true;
        t.color = r.color;
        t.x = curve.x;
        t.y = curve.y;
        c.series.push_back(std::move(t));
      }
    }
    if (!any_gpu) c.series.clear();
    set.add(std::move(c), no_gpu);
  }
  struct Gpu {
    const char* name;
    const char* tag;
    const char* title;
    const char* y;
  };
  for (const Gpu& g : {Gpu{"gpu_power_over_time", "gpu_power_usage", "GPU power", "Power (W)"},
                       Gpu{"gpu_memory_used_over_time", "gpu_memory_used", "GPU memory used",
                           "Memory used (GB)"}}) {
    Chart c;
    c.name = g.name;
    c.title = g.title;
    c.x_label = "Time (s since the first request)";
    c.y_label = g.y;
    c.caption = std::string(g.title) + " per GPU, from each scrape of the GPU telemetry.";
    for (const auto& r : runs)
      for (auto& s : gpu_series(r, g.tag, several)) c.series.push_back(std::move(s));
    set.add(std::move(c), no_gpu);
  }

  // One chart per server gauge family (their scales differ), the first few families by name.
  std::map<std::string, Chart> by_family;
  for (const auto& r : runs)
    for (const auto& ts : r.run->server) {
      const std::string family = ts.name.substr(0, ts.name.find(' '));
      auto& c = by_family[family];
      if (c.name.empty()) {
        c.name = "server_" + file_stem(family) + "_over_time";
        c.title = "Server metric " + family;
        c.x_label = "Time (s since the first request)";
        c.y_label = family;
        c.caption = "Gauge " + family +
                    " from the server's /metrics (summed over label sets), "
                    "each scrape whose values changed.";
      }
      Series s;
      s.title = several ? r.label + ": " + ts.name : ts.name;
      s.style = Style::kSteps;
      s.color = r.color + c.series.size();
      s.x = ts.t_s;
      s.y = ts.value;
      c.series.push_back(std::move(s));
    }
  if (by_family.empty())
    set.skipped.push_back(
        {"server_*_over_time", "no run has changing server gauges in server_metrics_export.jsonl"});
  std::size_t n = 0;
  for (auto& [family, c] : by_family) {
    if (n++ == kMaxServerCharts) {
      set.skipped.push_back({"server_*_over_time", "only the first " +
                                                       std::to_string(kMaxServerCharts) +
                                                       " server gauge families are drawn"});
      break;
    }
    set.add(std::move(c), "no points");
  }
}

}  // namespace inferperf::plot
