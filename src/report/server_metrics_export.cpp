#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/version.hpp"
#include "report/export_parts.hpp"
#include "report/format.hpp"
#include "report/telemetry_exports.hpp"
#include "telemetry/series_timeslices.hpp"

namespace inferperf::report {

using nlohmann::ordered_json;
using telemetry::MetricType;

namespace {

bool ends_with(const std::string& s, std::string_view x) {
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

bool contains(const std::string& s, std::string_view x) {
  return s.find(x) != std::string::npos;
}

// Unit from the naming conventions of Prometheus metric names; a counter named after nothing else
// counts (its family name has no `_total`: the parser names counters as AIPerf 0.11 keys them).
std::string unit_of(const std::string& name, bool counter) {
  // llama.cpp's llamacpp:prompt_tokens_seconds and predicted_tokens_seconds are rates, as their
  // help text says (tokens/s), not durations.
  if (contains(name, "tokens_seconds") || contains(name, "tokens_per_second")) return "tokens/s";
  if (contains(name, "_seconds")) return "seconds";
  if (contains(name, "_milliseconds") || ends_with(name, "_ms")) return "milliseconds";
  if (contains(name, "_bytes")) return "bytes";
  if (contains(name, "_tokens")) return "tokens";
  if (ends_with(name, "_perc") || ends_with(name, "_percent") || ends_with(name, "_percentage"))
    return "percent";
  if (ends_with(name, "_ratio")) return "ratio";
  if (contains(name, "_requests") || contains(name, "_reqs")) return "requests";
  if (counter || ends_with(name, "_total") || ends_with(name, "_count")) return "count";
  return "";
}

bool is_info(const telemetry::SeriesInfo& s) {
  return s.type == MetricType::kInfo ||
         ((s.type == MetricType::kGauge || s.type == MetricType::kUntyped) &&
          ends_with(s.family, "_info"));
}

std::string type_name(const telemetry::SeriesInfo& s) {
  return is_info(s) ? "info" : std::string(telemetry::to_string(s.type));
}

ordered_json labels_json(const telemetry::Labels& labels) {
  ordered_json j = ordered_json::object();
  for (const auto& [k, v] : labels) j[k] = v;
  return j;
}

std::string le_text(double le) {
  return telemetry::format_number(le);
}

ordered_json percentile_keys(const core::Stats& s, ordered_json& o) {
  for (std::size_t i = 0; i < core::kPercentiles.size(); ++i)
    o["p" + std::to_string(static_cast<int>(core::kPercentiles[i]))] = s.p[i];
  return o;
}

const std::vector<std::string> kGaugeKeys = {"avg", "min", "max", "std", "p1",  "p5", "p10",
                                             "p25", "p50", "p75", "p90", "p95", "p99"};
const std::vector<std::string> kCounterKeys = {"total",    "rate",     "rate_avg",
                                               "rate_min", "rate_max", "rate_std"};
const std::vector<std::string> kHistogramKeys = {
    "count",        "count_rate",   "sum",          "sum_rate",     "avg",
    "p1_estimate",  "p5_estimate",  "p10_estimate", "p25_estimate", "p50_estimate",
    "p75_estimate", "p90_estimate", "p95_estimate", "p99_estimate"};

// Stats of one series over the window; null when it has no data there.
ordered_json series_stats(const telemetry::ScrapeLog& log, int id, const telemetry::Window& w,
                          ordered_json& buckets) {
  const auto& info = log.series()[static_cast<std::size_t>(id)];
  ordered_json o;
  if (info.type == MetricType::kHistogram) {
    auto h = telemetry::histogram_stats(log, id, w);
    if (!h) return nullptr;
    o["count"] = h->count;
    o["count_rate"] = h->count_rate;
    o["sum"] = h->sum;
    o["sum_rate"] = h->sum_rate;
    o["avg"] = h->avg;
    for (std::size_t i = 0; i < core::kPercentiles.size(); ++i) {
      const auto key = fmt::format("p{}_estimate", static_cast<int>(core::kPercentiles[i]));
      o[key] = std::isfinite(h->p[i]) ? ordered_json(h->p[i]) : ordered_json(nullptr);
    }
    buckets = ordered_json::object();
    for (const auto& [le, c] : h->buckets) buckets[le_text(le)] = c;
    return o;
  }
  if (info.type == MetricType::kCounter) {
    auto c = telemetry::counter_stats(log, id, w);
    if (!c) return nullptr;
    o["total"] = c->total;
    o["rate"] = c->rate;
    const bool any = c->interval_rates.count > 0;
    o["rate_avg"] = any ? ordered_json(c->interval_rates.avg) : ordered_json(nullptr);
    o["rate_min"] = any ? ordered_json(c->interval_rates.min) : ordered_json(nullptr);
    o["rate_max"] = any ? ordered_json(c->interval_rates.max) : ordered_json(nullptr);
    o["rate_std"] = any ? ordered_json(c->interval_rates.std) : ordered_json(nullptr);
    return o;
  }
  if (is_info(info)) {
    // Static facts about the server: whichever scrape saw them, in the window or not.
    const telemetry::Window any{std::numeric_limits<std::int64_t>::min(),
                                std::numeric_limits<std::int64_t>::max()};
    auto v = telemetry::gauge_stats(log, id, any);
    if (!v) return nullptr;
    o["value"] = v->max;
    return o;
  }
  auto g = telemetry::gauge_stats(log, id, w);
  if (!g) return nullptr;
  o["avg"] = g->avg;
  o["min"] = g->min;
  o["max"] = g->max;
  o["std"] = g->std;
  percentile_keys(*g, o);
  return o;
}

double ms(std::int64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

bool scrape_changed(const telemetry::Scrape& a, const telemetry::Scrape* prev) {
  if (!prev) return true;
  if (a.values != prev->values) return true;
  if (a.histograms.size() != prev->histograms.size()) return true;
  for (std::size_t i = 0; i < a.histograms.size(); ++i) {
    const auto& x = a.histograms[i];
    const auto& y = prev->histograms[i];
    if (x.first != y.first || x.second.cumulative != y.second.cumulative ||
        x.second.sum != y.second.sum || x.second.count != y.second.count)
      return true;
  }
  return false;
}

ordered_json slice_head(const telemetry::Slice& s, const core::WallAnchor& anchor) {
  ordered_json o;
  o["start_ns"] = anchor.to_wall(s.start_ns);
  o["end_ns"] = anchor.to_wall(s.end_ns);
  if (!s.complete) o["is_complete"] = false;  // AIPerf writes the flag only on a partial slice
  return o;
}

// A series' `timeslices` (gauge and unknown: avg/min/max; counter: total/rate; histogram:
// count/sum/avg and bucket deltas); null when it has none or is an info metric.
ordered_json series_timeslices(const telemetry::ScrapeLog& log, int id,
                               const ServerMetricsInput& in,
                               const std::vector<telemetry::Slice>& slices) {
  const auto& info = log.series()[static_cast<std::size_t>(id)];
  if (slices.empty() || is_info(info)) return nullptr;
  ordered_json out = ordered_json::array();
  if (info.type == MetricType::kHistogram) {
    for (const auto& h : telemetry::histogram_slices(log, id, in.window, slices)) {
      ordered_json o = slice_head(h.slice, in.anchor);
      o["count"] = h.count;
      o["sum"] = h.sum;
      o["avg"] = h.count > 0 ? ordered_json(h.sum / h.count) : ordered_json(nullptr);
      ordered_json b = ordered_json::object();
      for (const auto& [le, c] : h.buckets) b[le_text(le)] = c;
      o["buckets"] = std::move(b);
      out.push_back(std::move(o));
    }
  } else if (info.type == MetricType::kCounter) {
    for (const auto& c : telemetry::counter_slices(log, id, in.window, slices)) {
      ordered_json o = slice_head(c.slice, in.anchor);
      o["total"] = c.total;
      o["rate"] = c.rate;
      out.push_back(std::move(o));
    }
  } else {
    for (const auto& g : telemetry::gauge_slices(log, id, in.window, slices)) {
      ordered_json o = slice_head(g.slice, in.anchor);
      o["avg"] = g.avg;
      o["min"] = g.min;
      o["max"] = g.max;
      out.push_back(std::move(o));
    }
  }
  return out.empty() ? ordered_json(nullptr) : out;
}

// AIPerf's endpoint_info: every fetch counts, an update is a fetch whose stored values differ
// from the previous fetch's (the first fetch is one). The update span and intervals are 0 rather
// than null when there are too few updates, as AIPerf writes them; only the median is nullable.
ordered_json endpoint_info(const telemetry::ScrapeLog& log, const core::WallAnchor& anchor) {
  const auto& s = log.scrapes();
  ordered_json j;
  j["total_fetches"] = s.size();
  std::int64_t first_fetch = 0, last_fetch = 0;
  if (!s.empty()) {
    first_fetch = anchor.to_wall(s.front().done_ns);
    last_fetch = anchor.to_wall(s.back().done_ns);
  }
  j["first_fetch_ns"] = first_fetch;
  j["last_fetch_ns"] = last_fetch;
  double latency = 0;
  for (const auto& x : s) latency += ms(x.done_ns - x.sent_ns);
  j["avg_fetch_latency_ms"] = s.empty() ? 0.0 : latency / static_cast<double>(s.size());
  std::vector<std::int64_t> updates;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (scrape_changed(s[i], i == 0 ? nullptr : &s[i - 1])) updates.push_back(s[i].done_ns);
  }
  j["unique_updates"] = updates.size();
  j["first_update_ns"] = updates.empty() ? std::int64_t{0} : anchor.to_wall(updates.front());
  j["last_update_ns"] = updates.empty() ? std::int64_t{0} : anchor.to_wall(updates.back());
  const double span_s =
      updates.empty() ? 0.0 : static_cast<double>(updates.back() - updates.front()) / 1e9;
  j["duration_seconds"] = span_s;
  j["avg_update_interval_ms"] =
      updates.size() > 1 ? span_s * 1e3 / static_cast<double>(updates.size() - 1) : 0.0;
  std::vector<double> gaps;
  for (std::size_t i = 1; i < updates.size(); ++i) gaps.push_back(ms(updates[i] - updates[i - 1]));
  if (gaps.empty()) {
    j["median_update_interval_ms"] = nullptr;
  } else {
    j["median_update_interval_ms"] = core::compute_stats(gaps).percentile(50);
  }
  return j;
}

}  // namespace

ordered_json server_metrics_json(const ServerMetricsInput& in) {
  ordered_json j;
  j["schema_version"] = "1.0";
  j["aiperf_version"] = kAiperfFormatVersion;
  j["benchmark_id"] = in.benchmark_id;
  auto configured = ordered_json::array();
  auto successful = ordered_json::array();
  for (const auto& e : *in.endpoints) {
    configured.push_back(e.url);
    if (e.reach == telemetry::Reach::kReachable) successful.push_back(e.url);
  }
  j["summary"]["endpoints_configured"] = configured;
  j["summary"]["endpoints_successful"] = successful;
  j["summary"]["start_time"] = local_iso8601(in.anchor.to_wall(in.window.start_ns));
  j["summary"]["end_time"] = local_iso8601(in.anchor.to_wall(in.window.end_ns));
  ordered_json info = ordered_json::object();
  ordered_json metrics_out = ordered_json::object();
  std::vector<telemetry::Slice> slices;
  if (in.slice_duration_s && std::isfinite(*in.slice_duration_s) && *in.slice_duration_s > 0)
    slices = telemetry::slices_of(in.window, static_cast<std::int64_t>(*in.slice_duration_s * 1e9));
  for (const auto& log : *in.logs) {
    if (log.scrapes().empty()) continue;
    info[log.url()] = endpoint_info(log, in.anchor);
    for (std::size_t id = 0; id < log.series().size(); ++id) {
      const auto& s = log.series()[id];
      ordered_json buckets;
      ordered_json stats = series_stats(log, static_cast<int>(id), in.window, buckets);
      if (stats.is_null()) continue;
      auto& m = metrics_out[s.family];
      if (m.is_null()) {
        m["type"] = type_name(s);
        m["description"] = s.help;
        m["unit"] = unit_of(s.family, s.type == MetricType::kCounter);
        m["series"] = ordered_json::array();
      }
      ordered_json series;
      series["endpoint_url"] = log.url();
      series["labels"] = labels_json(s.labels);
      series["stats"] = std::move(stats);
      if (!buckets.is_null()) series["buckets"] = std::move(buckets);
      auto ts = series_timeslices(log, static_cast<int>(id), in, slices);
      if (!ts.is_null()) series["timeslices"] = std::move(ts);
      m["series"].push_back(std::move(series));
    }
  }
  j["summary"]["endpoint_info"] = std::move(info);
  j["metrics"] = std::move(metrics_out);
  j["input_config"] = in.input_config;
  return j;
}

std::string server_metrics_csv(const ordered_json& sm) {
  if (!sm.contains("metrics")) return {};
  struct Section {
    std::vector<std::string> types;
    const std::vector<std::string>* keys;
    bool buckets;
  };
  const std::vector<Section> sections = {{{"gauge", "unknown"}, &kGaugeKeys, false},
                                         {{"counter"}, &kCounterKeys, false},
                                         {{"histogram"}, &kHistogramKeys, true}};
  std::string out;
  auto cell = [](const ordered_json& v) -> std::string {
    if (v.is_number()) return csv_number(v.get<double>(), false);
    if (v.is_string()) return csv_field(v.get<std::string>());
    return {};
  };
  for (const auto& sec : sections) {
    std::set<std::string> label_names;
    std::vector<std::pair<std::string, const ordered_json*>> rows;
    for (const auto& [name, m] : sm["metrics"].items()) {
      if (std::find(sec.types.begin(), sec.types.end(), m.value("type", "")) == sec.types.end())
        continue;
      for (const auto& s : m["series"]) {
        for (const auto& [k, v] : s["labels"].items()) label_names.insert(k);
        rows.emplace_back(name, &s);
      }
    }
    if (rows.empty()) continue;
    if (!out.empty()) out += "\r\n";
    out += "Endpoint,Type,Metric,Unit";
    for (const auto& k : *sec.keys) out += "," + k;
    for (const auto& l : label_names) out += "," + csv_field(l);
    out += ",Description";
    if (sec.buckets) out += ",buckets";
    out += "\r\n";
    for (const auto& [name, s] : rows) {
      const auto& m = sm["metrics"][name];
      out += csv_field((*s)["endpoint_url"].get<std::string>()) + "," +
             m["type"].get<std::string>() + "," + csv_field(name) + "," +
             csv_field(m["unit"].get<std::string>());
      for (const auto& k : *sec.keys)
        out += "," + ((*s)["stats"].contains(k) ? cell((*s)["stats"][k]) : std::string());
      for (const auto& l : label_names)
        out += "," + ((*s)["labels"].contains(l) ? cell((*s)["labels"][l]) : std::string());
      out += "," + csv_field(m["description"].get<std::string>());
      if (sec.buckets) {
        std::string b;
        if (s->contains("buckets")) {
          for (const auto& [le, c] : (*s)["buckets"].items()) {
            if (!b.empty()) b += ";";
            b += le + ":" + csv_number(c.get<double>(), true);
          }
        }
        out += "," + csv_field(b);
      }
      out += "\r\n";
    }
  }
  // Info metrics, transposed: one row per label.
  std::string info;
  for (const auto& [name, m] : sm["metrics"].items()) {
    if (m.value("type", "") != "info") continue;
    for (const auto& s : m["series"]) {
      for (const auto& [k, v] : s["labels"].items()) {
        info += csv_field(s["endpoint_url"].get<std::string>()) + "," + csv_field(name) + "," +
                csv_field(k) + "," + cell(v) + "," +
                csv_field(m["description"].get<std::string>()) + "\r\n";
      }
    }
  }
  if (!info.empty()) {
    if (!out.empty()) out += "\r\n";
    out += "Endpoint,Metric,Key,Value,Description\r\n" + info;
  }
  return out;
}

void write_server_metrics_jsonl(const ServerMetricsInput& in, std::ostream& out) {
  for (const auto& log : *in.logs) {
    const telemetry::Scrape* prev = nullptr;
    for (const auto& s : log.scrapes()) {
      if (!scrape_changed(s, prev)) continue;
      prev = &s;
      ordered_json j;
      j["endpoint_url"] = log.url();
      j["timestamp_ns"] = in.anchor.to_wall(s.done_ns);
      j["endpoint_latency_ns"] = s.done_ns - s.sent_ns;
      j["request_sent_ns"] = in.anchor.to_wall(s.sent_ns);
      j["first_byte_ns"] = in.anchor.to_wall(s.done_ns);
      ordered_json metrics_out = ordered_json::object();
      for (const auto& [id, v] : s.values) {
        const auto& info = log.series()[static_cast<std::size_t>(id)];
        ordered_json e;
        if (!info.labels.empty()) e["labels"] = labels_json(info.labels);
        e["value"] = v;
        metrics_out[info.family].push_back(std::move(e));
      }
      for (const auto& [id, h] : s.histograms) {
        const auto& info = log.series()[static_cast<std::size_t>(id)];
        ordered_json e;
        if (!info.labels.empty()) e["labels"] = labels_json(info.labels);
        ordered_json b = ordered_json::object();
        for (std::size_t i = 0; i < info.bounds.size() && i < h.cumulative.size(); ++i)
          b[le_text(info.bounds[i])] = h.cumulative[i];
        e["buckets"] = std::move(b);
        e["sum"] = h.sum;
        e["count"] = h.count;
        metrics_out[info.family].push_back(std::move(e));
      }
      j["metrics"] = std::move(metrics_out);
      out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
  }
}

}  // namespace inferperf::report
