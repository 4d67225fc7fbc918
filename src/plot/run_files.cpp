#include "plot/run_files.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <simdjson.h>

#include "artifacts/run_folder.hpp"
#include "plot/plot_error.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

PlotError line_error(const fs::path& path, int line, const std::string& what) {
  return input_error("inferperf plot: " + path.string() + ":" + std::to_string(line) + ": " + what);
}

double metric_value(const json& metrics, const char* tag) {
  const auto m = metrics.find(tag);
  if (m == metrics.end() || !m->is_object()) return kNaN;
  const auto v = m->find("value");
  return v != m->end() && v->is_number() ? v->get<double>() : kNaN;
}

std::int64_t required_ns(const json& obj, const char* key, const fs::path& path, int line,
                         const char* where) {
  const auto v = obj.find(key);
  if (v == obj.end() || !v->is_number_integer())
    throw line_error(path, line,
                     std::string("field ") + where + key + " missing or not an integer");
  return v->get<std::int64_t>();
}

double seconds_since(std::int64_t ns, std::int64_t zero_ns) {
  return static_cast<double>(ns - zero_ns) / 1e9;
}

}  // namespace

bool for_each_json_line(const fs::path& path, const std::function<void(const json&, int)>& fn) {
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (fs::exists(path, ec))
      throw input_error("inferperf plot: " + path.string() + ": cannot be read");
    return false;
  }
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(text);
    } catch (const json::parse_error& e) {
      throw line_error(path, line, std::string("not valid JSON (") + e.what() + ")");
    }
    if (!j.is_object()) throw line_error(path, line, "not a JSON object");
    fn(j, line);
  }
  return true;
}

void load_requests(RunData& run) {
  const fs::path path = run.dir / artifacts::kRecordsExportFileName;
  struct Raw {
    std::int64_t start_ns, end_ns;
    RequestRow row;
  };
  std::vector<Raw> raw;
  const bool found = for_each_json_line(path, [&](const json& j, int line) {
    const auto md = j.find("metadata");
    if (md == j.end() || !md->is_object()) throw line_error(path, line, "field metadata missing");
    Raw r{};
    r.start_ns = required_ns(*md, "request_start_ns", path, line, "metadata.");
    r.end_ns = required_ns(*md, "request_end_ns", path, line, "metadata.");
    const auto m = j.find("metrics");
    const json metrics = m != j.end() && m->is_object() ? *m : json::object();
    r.row.ttft_ms = metric_value(metrics, "time_to_first_token");
    r.row.itl_ms = metric_value(metrics, "inter_token_latency");
    r.row.latency_ms = metric_value(metrics, "request_latency");
    r.row.isl = metric_value(metrics, "input_sequence_length");
    r.row.osl = metric_value(metrics, "output_sequence_length");
    r.row.error = j.contains("error");
    raw.push_back(r);
  });
  if (!found) {
    run.notes.push_back(path.string() + " missing: no per-request charts for this run");
    return;
  }
  std::vector<RequestRow> rows;
  if (!raw.empty()) {
    run.zero_ns = std::min_element(raw.begin(), raw.end(), [](const Raw& a, const Raw& b) {
                    return a.start_ns < b.start_ns;
                  })->start_ns;
  }
  rows.reserve(raw.size());
  for (auto& r : raw) {
    r.row.start_s = seconds_since(r.start_ns, run.zero_ns);
    r.row.end_s = seconds_since(r.end_ns, run.zero_ns);
    r.row.first_token_s = std::isnan(r.row.ttft_ms) ? kNaN : r.row.start_s + r.row.ttft_ms / 1e3;
    rows.push_back(r.row);
  }
  std::sort(rows.begin(), rows.end(),
            [](const RequestRow& a, const RequestRow& b) { return a.start_s < b.start_s; });
  run.requests = std::move(rows);
}

void load_dispatch(RunData& run) {
  // The raw records carry every content event, so they dwarf the other files: simdjson, and only
  // the three fields wanted are looked at.
  const fs::path path = run.dir / artifacts::kRecordsFileName;
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (fs::exists(path, ec))
      throw input_error("inferperf plot: " + path.string() + ": cannot be read");
    run.notes.push_back(path.string() + " missing: no dispatch charts for this run");
    return;
  }
  simdjson::dom::parser parser;
  std::vector<std::pair<std::int64_t, std::int64_t>> raw;  // intended, start
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    simdjson::dom::element doc;
    if (auto err = parser.parse(text).get(doc))
      throw line_error(path, line,
                       std::string("not valid JSON (") + simdjson::error_message(err) + ")");
    std::string_view phase;
    if (doc["phase"].get(phase))
      throw line_error(path, line, "field phase missing or not a string");
    if (phase != "profiling") continue;
    std::int64_t intended = 0, start = 0;
    if (doc["intended_ns"].get(intended))
      throw line_error(path, line, "field intended_ns missing or not an integer");
    if (doc["start_ns"].get(start))
      throw line_error(path, line, "field start_ns missing or not an integer");
    if (intended == 0 || start == 0) continue;  // never scheduled, or never started
    raw.emplace_back(intended, start);
  }
  std::sort(raw.begin(), raw.end());
  std::vector<DispatchRow> rows;
  rows.reserve(raw.size());
  const std::int64_t zero = raw.empty() ? 0 : raw.front().first;
  for (const auto& [intended, start] : raw)
    rows.push_back({seconds_since(intended, zero), seconds_since(start, zero)});
  run.dispatch = std::move(rows);
}

namespace {

// The human headers of the timeslice CSV, for the metrics the charts draw.
const std::map<std::string, std::string>& csv_header_tags() {
  static const std::map<std::string, std::string> m = {
      {"Time to First Token", "time_to_first_token"},
      {"Inter Token Latency", "inter_token_latency"},
      {"Request Latency", "request_latency"},
      {"Output Token Throughput", "output_token_throughput"},
      {"Request Throughput", "request_throughput"},
  };
  return m;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

void timeslices_from_csv(RunData& run, const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw input_error("inferperf plot: " + path.string() + ": cannot be read");
  std::map<int, TimesliceRow> rows;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (line == 1 || text.empty()) continue;
    const auto cells = split_csv_line(text);
    if (cells.size() != 5)
      throw line_error(path, line, "expected 5 columns (Timeslice,Metric,Unit,Stat,Value)");
    if (cells[3] != "avg") continue;
    const auto tag = csv_header_tags().find(cells[1]);
    if (tag == csv_header_tags().end()) continue;
    try {
      const int index = std::stoi(cells[0]);
      rows[index].index = index;
      rows[index].avg[tag->second] = std::stod(cells[4]);
    } catch (const std::exception&) {
      throw line_error(path, line, "Timeslice or Value is not a number");
    }
  }
  std::vector<TimesliceRow> out;
  for (auto& [i, r] : rows) out.push_back(std::move(r));
  run.timeslices = std::move(out);
}

}  // namespace

void load_timeslices(RunData& run) {
  const fs::path json_path = run.dir / artifacts::kTimeslicesJsonFileName;
  const fs::path csv_path = run.dir / artifacts::kTimeslicesCsvFileName;
  std::error_code ec;
  if (!fs::exists(json_path, ec)) {
    if (fs::exists(csv_path, ec)) return timeslices_from_csv(run, csv_path);
    run.notes.push_back(run.dir.string() + ": no timeslice export (run without --slice-duration)");
    return;
  }
  std::ifstream in(json_path);
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw input_error("inferperf plot: " + json_path.string() + ": not valid JSON (" + e.what() +
                      ")");
  }
  const auto slices = j.find("timeslices");
  if (slices == j.end() || !slices->is_array())
    throw input_error("inferperf plot: " + json_path.string() + ": field timeslices missing");
  std::vector<TimesliceRow> rows;
  for (std::size_t i = 0; i < slices->size(); ++i) {
    const json& s = (*slices)[i];
    const auto idx = s.find("timeslice_index");
    if (idx == s.end() || !idx->is_number_integer())
      throw input_error("inferperf plot: " + json_path.string() + ": timeslices[" +
                        std::to_string(i) + "].timeslice_index missing");
    TimesliceRow row;
    row.index = idx->get<int>();
    for (const auto& [tag, m] : s.items())
      if (m.is_object() && m.contains("avg") && m["avg"].is_number())
        row.avg[tag] = m["avg"].get<double>();
    rows.push_back(std::move(row));
  }
  run.timeslices = std::move(rows);
}

void load_gpu_telemetry(RunData& run) {
  const fs::path path = run.dir / artifacts::kGpuTelemetryFileName;
  // (url, gpu index) -> tag -> series
  std::map<std::pair<std::string, int>, std::map<std::string, TimeSeries>> by_gpu;
  std::set<std::string> urls;
  struct Sample {
    std::int64_t ns;
    std::string url, model;
    int index;
    json data;
  };
  std::vector<Sample> samples;
  const bool found = for_each_json_line(path, [&](const json& j, int line) {
    Sample s;
    s.ns = required_ns(j, "timestamp_ns", path, line, "");
    const auto idx = j.find("gpu_index");
    if (idx == j.end() || !idx->is_number_integer())
      throw line_error(path, line, "field gpu_index missing or not an integer");
    s.index = idx->get<int>();
    s.url = j.value("dcgm_url", "");
    s.model = j.value("gpu_model_name", "");
    const auto data = j.find("telemetry_data");
    if (data == j.end() || !data->is_object())
      throw line_error(path, line, "field telemetry_data missing or not an object");
    s.data = *data;
    urls.insert(s.url);
    samples.push_back(std::move(s));
  });
  if (!found) {
    run.notes.push_back(run.dir.string() + ": no gpu_telemetry_export.jsonl (no GPU telemetry)");
    return;
  }
  if (samples.empty()) return;
  if (run.zero_ns == 0)
    run.zero_ns =
        std::min_element(samples.begin(), samples.end(), [](const auto& a, const auto& b) {
          return a.ns < b.ns;
        })->ns;
  for (const auto& s : samples) {
    for (const auto& [tag, v] : s.data.items()) {
      if (!v.is_number()) continue;
      auto& series = by_gpu[{s.url, s.index}][tag];
      if (series.name.empty()) {
        series.name = "GPU " + std::to_string(s.index);
        if (!s.model.empty()) series.name += " (" + s.model + ")";
        if (urls.size() > 1) series.name += " " + s.url;
      }
      series.t_s.push_back(seconds_since(s.ns, run.zero_ns));
      series.value.push_back(v.get<double>());
    }
  }
  for (auto& [gpu, tags] : by_gpu)
    for (auto& [tag, series] : tags) run.gpu[tag].push_back(std::move(series));
}

// Family name -> type from server_metrics_export.json, when the run wrote it: counters are named
// without `_total` (AIPerf 0.11), so the type, not the name, says what is a gauge.
std::map<std::string, std::string> server_metric_types(const fs::path& dir) {
  std::map<std::string, std::string> types;
  std::ifstream in(dir / artifacts::kServerMetricsJsonFileName);
  if (!in) return types;
  const json j = json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("metrics") || !j["metrics"].is_object()) return types;
  for (const auto& [name, m] : j["metrics"].items()) {
    if (m.is_object() && m.contains("type") && m["type"].is_string())
      types[name] = m["type"].get<std::string>();
  }
  return types;
}

bool plotted_as_gauge(const std::string& family, const std::map<std::string, std::string>& types) {
  if (const auto t = types.find(family); t != types.end())
    return t->second == "gauge" || t->second == "unknown";
  return !family.ends_with("_total") && !family.ends_with("_created");
}

void load_server_metrics(RunData& run) {
  const fs::path path = run.dir / artifacts::kServerMetricsJsonlFileName;
  const auto types = server_metric_types(run.dir);
  std::map<std::pair<std::string, std::string>, TimeSeries> by_family;  // (url, family)
  std::set<std::string> urls;
  const bool found = for_each_json_line(path, [&](const json& j, int line) {
    const std::int64_t ns = required_ns(j, "timestamp_ns", path, line, "");
    const std::string url = j.value("endpoint_url", "");
    const auto metrics = j.find("metrics");
    if (metrics == j.end() || !metrics->is_object())
      throw line_error(path, line, "field metrics missing or not an object");
    urls.insert(url);
    for (const auto& [family, entries] : metrics->items()) {
      // Gauges only: counters only ever grow and histograms are summarised in the JSON export.
      if (!plotted_as_gauge(family, types) || !entries.is_array()) continue;
      double sum = 0;
      bool any = false;
      for (const auto& e : entries)
        if (e.is_object() && e.contains("value") && e["value"].is_number()) {
          sum += e["value"].get<double>();
          any = true;
        }
      if (!any) continue;
      auto& s = by_family[{url, family}];
      s.name = family;
      s.t_s.push_back(static_cast<double>(ns));  // made relative below, once zero_ns is known
      s.value.push_back(sum);
    }
  });
  if (!found) {
    run.notes.push_back(run.dir.string() +
                        ": no server_metrics_export.jsonl (server metrics over time need "
                        "--server-metrics-formats jsonl)");
    return;
  }
  if (run.zero_ns == 0 && !by_family.empty()) {
    double first = std::numeric_limits<double>::infinity();
    for (const auto& [key, s] : by_family) first = std::min(first, s.t_s.front());
    run.zero_ns = static_cast<std::int64_t>(first);
  }
  for (auto& [key, s] : by_family) {
    if (urls.size() > 1) s.name += " " + key.first;
    for (auto& t : s.t_s) t = (t - static_cast<double>(run.zero_ns)) / 1e9;
    const auto [lo, hi] = std::minmax_element(s.value.begin(), s.value.end());
    if (*lo == *hi) continue;  // a constant says nothing over time
    run.server.push_back(std::move(s));
  }
}

}  // namespace inferperf::plot
