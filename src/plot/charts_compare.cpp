// Charts with one point per run configuration (multi-run comparison): the Pareto curves
// and ttft_vs_throughput (docs/plots.md, Charts), and the reference workflow's
// throughput-vs-latency views.
#include <functional>
#include <map>
#include <optional>

#include "plot/charts.hpp"
#include "plot/series.hpp"

namespace inferperf::plot {

namespace {

using Value = std::function<std::optional<double>(const Point&)>;

enum class Frontier { kNone, kXSmallerIsBetter, kXLargerIsBetter };

struct Spec {
  const char* name;
  const char* title;
  const char* x_label;
  const char* y_label;
  const char* caption;
  Value x;
  Value y;
  Frontier frontier = Frontier::kNone;
};

Value stat(const char* tag) {
  return [tag](const Point& p) { return p.mean(tag); };
}

std::optional<double> per_gpu(const Point& p) {
  auto v = p.mean("output_token_throughput");
  if (!v) return std::nullopt;
  return *v / p.gpus_or_one();
}

// Points grouped by model (docs/plots.md, Charts), each group in the points' order.
std::map<std::string, std::vector<const Point*>> by_model(const std::vector<Point>& points) {
  std::map<std::string, std::vector<const Point*>> groups;
  for (const auto& p : points) groups[p.params().model].push_back(&p);
  return groups;
}

Chart build(const Spec& spec, const std::vector<Point>& points) {
  Chart c;
  c.name = spec.name;
  c.title = spec.title;
  c.x_label = spec.x_label;
  c.y_label = spec.y_label;
  c.caption = spec.caption;
  const auto groups = by_model(points);
  std::size_t colour = 0;
  for (const auto& [model, members] : groups) {
    const std::string who = model.empty() ? "runs" : model;
    Series all;
    all.style = spec.frontier == Frontier::kNone ? Style::kLinesPoints : Style::kPoints;
    all.point_size = 1.6;
    all.color = colour;
    all.title = spec.frontier == Frontier::kNone ? who : who + " (all points)";
    std::vector<XY> xy;
    std::vector<std::string> labels;
    for (const Point* p : members) {
      const auto x = spec.x(*p), y = spec.y(*p);
      if (!x || !y) continue;
      all.x.push_back(*x);
      all.y.push_back(*y);
      all.labels.push_back(p->label);
      xy.push_back({*x, *y});
    }
    if (spec.frontier != Frontier::kNone && !xy.empty()) {
      Series front;
      front.style = Style::kLines;
      front.color = colour;
      front.title = who + " Pareto frontier";
      for (std::size_t i : pareto_frontier(xy, spec.frontier == Frontier::kXLargerIsBetter)) {
        front.x.push_back(xy[i].x);
        front.y.push_back(xy[i].y);
      }
      c.series.push_back(std::move(front));
    }
    c.series.push_back(std::move(all));
    ++colour;
  }
  return c;
}

}  // namespace

void add_comparison_charts(const std::vector<Point>& points, ChartSet& set) {
  const std::vector<Spec> specs = {
      {"pareto_curve_throughput_per_gpu_vs_latency",
       "Output token throughput per GPU vs request latency", "Request latency avg (ms)",
       "Output token throughput per GPU (tokens/sec/gpu)",
       "One point per run configuration; the line joins the points no other point beats on both "
       "axes. Per GPU: output token throughput divided by the GPUs in the run's telemetry (1 "
       "when there was none).",
       stat("request_latency"), per_gpu, Frontier::kXSmallerIsBetter},
      {"pareto_curve_throughput_per_gpu_vs_interactivity",
       "Output token throughput per GPU vs interactivity",
       "Output token throughput per user avg (tokens/sec/user)",
       "Output token throughput per GPU (tokens/sec/gpu)",
       "Interactivity is the per-user token rate; the line joins the Pareto-optimal points.",
       stat("output_token_throughput_per_user"), per_gpu, Frontier::kXLargerIsBetter},
      {"output_token_throughput_vs_itl", "Output token throughput vs inter-token latency",
       "Inter-token latency avg (ms)", "Output token throughput (tokens/sec)",
       "Total output token rate against the average inter-token latency, one point per run "
       "configuration in order of the swept parameter.",
       stat("inter_token_latency"), stat("output_token_throughput")},
      {"throughput_per_user_vs_total", "Per-user vs total output token throughput",
       "Output token throughput (tokens/sec)", "Output token throughput per user (tokens/sec/user)",
       "What each user sees against what the server delivers in all.",
       stat("output_token_throughput"), stat("output_token_throughput_per_user")},
      {"ttft_vs_throughput", "Time to first token vs request throughput",
       "Time to first token avg (ms)", "Request throughput (requests/sec)",
       "Average TTFT against requests completed per second, one point per run configuration.",
       stat("time_to_first_token"), stat("request_throughput")},
  };
  for (const auto& spec : specs) {
    if (points.size() < 2) {
      set.skipped.push_back({spec.name, "needs two or more runs to compare (found one)"});
      continue;
    }
    set.add(build(spec, points), "no run has both values in profile_export_aiperf.json");
  }
}

}  // namespace inferperf::plot
