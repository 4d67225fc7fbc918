// Charts over a run's time axis (seconds since its first request started): per-request scatter,
// throughput, the request timeline, the dispatch schedule and timeslices.
#include <algorithm>
#include <cmath>

#include "plot/charts.hpp"
#include "plot/series.hpp"

namespace inferperf::plot {

namespace {

Chart chart(const char* name, const char* title, const char* x, const char* y,
            const char* caption) {
  Chart c;
  c.name = name;
  c.title = title;
  c.x_label = x;
  c.y_label = y;
  c.caption = caption;
  return c;
}

Series scatter(const RunSeries& r, double RequestRow::*field) {
  Series s;
  s.title = r.label;
  s.style = Style::kPoints;
  s.color = r.color;
  if (!r.run->requests) return s;
  for (const auto& row : *r.run->requests) {
    if (row.error) continue;
    s.x.push_back(row.start_s);
    s.y.push_back(row.*field);
  }
  return s;
}

void add_over_time(const std::vector<RunSeries>& runs, ChartSet& set) {
  Chart ttft = chart("ttft_over_time", "Time to first token over the run",
                     "Request start (s since the first request)", "Time to first token (ms)",
                     "One dot per successful request, at the time it was sent.");
  Chart itl = chart("itl_over_time", "Inter-token latency over the run",
                    "Request start (s since the first request)", "Inter-token latency (ms)",
                    "Each request's average gap between output tokens, at the time it was sent.");
  Chart lat = chart("latency_over_time", "Request latency over the run",
                    "Request start (s since the first request)", "Request latency (ms)",
                    "Dots: each successful request. Lines: rolling p50 (solid) and p90 (dashed) "
                    "over the last 5% of requests (at least 5).");
  Chart tput = chart("dispersed_throughput_over_time", "Output token throughput over the run",
                     "Time (s since the first request)", "Output tokens/sec",
                     "Each request's output tokens spread evenly over its first-token-to-end "
                     "interval, summed per time bin (about 50 bins per run).");
  for (const auto& r : runs) {
    ttft.series.push_back(scatter(r, &RequestRow::ttft_ms));
    itl.series.push_back(scatter(r, &RequestRow::itl_ms));
    Series dots = scatter(r, &RequestRow::latency_ms);
    const std::size_t window = std::max<std::size_t>(5, dots.y.size() / 20);
    for (double pct : {50.0, 90.0}) {
      Series line;
      line.title = r.label + (pct == 50 ? " p50" : " p90");
      line.style = Style::kLines;
      line.color = r.color;
      line.dashed = pct == 90;
      const Curve rolling = rolling_percentile(dots.x, dots.y, window, pct);
      line.x = rolling.x;
      line.y = rolling.y;
      lat.series.push_back(std::move(line));
    }
    dots.title.clear();
    lat.series.push_back(std::move(dots));
    if (r.run->requests) {
      const auto curve =
          dispersed_throughput(*r.run->requests, throughput_bin_seconds(*r.run->requests, 50));
      Series s;
      s.title = r.label;
      s.style = Style::kSteps;
      s.color = r.color;
      s.x = curve.x;
      s.y = curve.y;
      tput.series.push_back(std::move(s));
    }
  }
  tput.y_from_zero = true;
  set.add(std::move(ttft), kNoRecords);
  set.add(std::move(itl), kNoRecords);
  set.add(std::move(lat), kNoRecords);
  set.add(std::move(tput), kNoRecords);
}

// ttft_timeline (docs/plots.md, Charts): each request a bar, waiting for its first token, then
// decoding.
void add_timeline(const std::vector<RunSeries>& runs, ChartSet& set) {
  if (runs.size() != 1) {
    set.skipped.push_back({"ttft_timeline", "drawn for a single run only (one bar per request)"});
    return;
  }
  Chart c = chart("ttft_timeline", "Request timeline: prefill and decode",
                  "Time (s since the first request)", "Request (in order of start)",
                  "Each request a bar from its start: waiting for the first token (prefill), then "
                  "streaming the rest (decode).");
  Series prefill, decode;
  prefill.title = "prefill (start to first token)";
  prefill.style = decode.style = Style::kSegments;
  prefill.color = 1;
  decode.title = "decode (first token to end)";
  decode.color = 0;
  if (runs[0].run->requests) {
    int i = 0;
    for (const auto& row : *runs[0].run->requests) {
      ++i;
      if (row.error || !std::isfinite(row.first_token_s)) continue;
      prefill.x.push_back(row.start_s);
      prefill.x2.push_back(row.first_token_s);
      prefill.y.push_back(i);
      decode.x.push_back(row.first_token_s);
      decode.x2.push_back(row.end_s);
      decode.y.push_back(i);
    }
  }
  c.series.push_back(std::move(prefill));
  c.series.push_back(std::move(decode));
  set.add(std::move(c), kNoRecords);
}

void add_dispatch(const std::vector<RunSeries>& runs, ChartSet& set) {
  Chart timeline = chart("dispatch_timeline", "Dispatch: actual vs scheduled send time",
                         "Scheduled send (s since the first scheduled send)",
                         "Actual send (s since the first scheduled send)",
                         "Each request at its scheduled (intended) send time against when it was "
                         "actually sent; the dashed diagonal is a perfect schedule.");
  Chart lag = chart("schedule_lag", "Schedule lag over the run",
                    "Scheduled send (s since the first scheduled send)", "Schedule lag (ms)",
                    "Request start minus intended send time (docs/metrics.md: schedule_lag); "
                    "closed-loop runs intend each request when its slot frees.");
  double last = 0;
  for (const auto& r : runs) {
    if (!r.run->dispatch) continue;
    Series t, l;
    t.title = l.title = r.label;
    t.style = l.style = Style::kPoints;
    t.color = l.color = r.color;
    for (const auto& d : *r.run->dispatch) {
      t.x.push_back(d.intended_s);
      t.y.push_back(d.start_s);
      l.x.push_back(d.intended_s);
      l.y.push_back(d.lag_ms());
      last = std::max(last, d.intended_s);
    }
    timeline.series.push_back(std::move(t));
    lag.series.push_back(std::move(l));
  }
  if (has_points(timeline)) {
    Series diagonal;
    diagonal.title = "on schedule";
    diagonal.style = Style::kLines;
    diagonal.dashed = true;
    diagonal.color = 7;
    diagonal.x = {0, last};
    diagonal.y = {0, last};
    timeline.series.insert(timeline.series.begin(), std::move(diagonal));
  }
  const char* why = "no run has raw records (inferperf_records.jsonl)";
  set.add(std::move(timeline), why);
  set.add(std::move(lag), why);
}

void add_timeslices(const std::vector<RunSeries>& runs, ChartSet& set) {
  struct Slice {
    const char* name;
    const char* title;
    const char* tag;
    const char* y;
  };
  const Slice slices[] = {
      {"timeslices_ttft", "Time to first token per timeslice", "time_to_first_token",
       "Time to first token avg (ms)"},
      {"timeslices_itl", "Inter-token latency per timeslice", "inter_token_latency",
       "Inter-token latency avg (ms)"},
      {"timeslices_throughput", "Output token throughput per timeslice", "output_token_throughput",
       "Output token throughput (tokens/sec)"},
      {"timeslices_latency", "Request latency per timeslice", "request_latency",
       "Request latency avg (ms)"},
  };
  for (const auto& sl : slices) {
    Chart c = chart(sl.name, sl.title, "Timeslice (index of the non-empty slices)", sl.y,
                    "Averages per --slice-duration slice, from profile_export_aiperf_timeslices.");
    for (const auto& r : runs) {
      if (!r.run->timeslices) continue;
      Series s;
      s.title = r.label;
      s.style = Style::kLinesPoints;
      s.color = r.color;
      for (const auto& row : *r.run->timeslices)
        if (auto it = row.avg.find(sl.tag); it != row.avg.end()) {
          s.x.push_back(row.index);
          s.y.push_back(it->second);
        }
      c.series.push_back(std::move(s));
    }
    set.add(std::move(c), "no run has a timeslice export (profile with --slice-duration)");
  }
}

}  // namespace

void add_time_charts(const std::vector<RunSeries>& runs, ChartSet& set) {
  add_over_time(runs, set);
  add_timeline(runs, set);
  add_dispatch(runs, set);
  add_timeslices(runs, set);
}

}  // namespace inferperf::plot
