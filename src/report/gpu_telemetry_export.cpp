#include <fmt/format.h>

#include <cmath>
#include <map>

#include "core/statistics.hpp"
#include "report/console_table.hpp"
#include "report/export_parts.hpp"
#include "report/format.hpp"
#include "report/telemetry_exports.hpp"

namespace inferperf::report {

using nlohmann::ordered_json;
using telemetry::GpuMetric;

namespace {

ordered_json stats_object(std::string_view unit, const core::Stats& s) {
  ordered_json o;
  o["unit"] = unit;
  o["avg"] = s.avg;
  for (std::size_t i = 0; i < core::kPercentiles.size(); ++i)
    o["p" + std::to_string(static_cast<int>(core::kPercentiles[i]))] = s.p[i];
  o["min"] = s.min;
  o["max"] = s.max;
  o["std"] = s.std;
  o["count"] = s.count;  // AIPerf 0.11: GPU stat blocks keep count
  return o;
}

// A counter's change over the window, and how many readings it is taken from.
ordered_json counter_object(std::string_view unit, double delta, std::int64_t samples) {
  ordered_json o;
  o["unit"] = unit;
  o["avg"] = delta;
  o["count"] = samples;
  return o;
}

// Header and unit of a metric key, for the tables.
std::pair<std::string, std::string> describe(const std::string& tag, const ordered_json& m) {
  for (const auto& i : telemetry::kGpuMetrics)
    if (i.tag == tag) return {std::string(i.header), std::string(i.unit)};
  return {tag, m.value("unit", "")};
}

std::string metric_label(const std::string& header, const std::string& unit) {
  if (unit.empty() || unit == "count") return header;
  return header + " (" + unit + ")";
}

}  // namespace

ordered_json telemetry_data_json(const GpuTelemetryInput& in) {
  if (!in.samples) return nullptr;
  // endpoint -> gpu index -> samples, in first-seen order of endpoints.
  std::vector<std::string> order;
  std::map<std::string, std::map<int, std::vector<const telemetry::GpuSample*>>> by;
  for (const auto& s : *in.samples) {
    if (!in.window.contains(s.mono_ns)) continue;
    if (!by.count(s.source)) order.push_back(s.source);
    by[s.source][s.gpu.index].push_back(&s);
  }
  if (order.empty()) return nullptr;
  ordered_json j;
  j["summary"]["endpoints_configured"] = in.endpoints_configured;
  j["summary"]["endpoints_successful"] = in.endpoints_successful;
  j["summary"]["start_time"] = local_iso8601(in.anchor.to_wall(in.window.start_ns));
  j["summary"]["end_time"] = local_iso8601(in.anchor.to_wall(in.window.end_ns));
  ordered_json endpoints = ordered_json::object();
  for (const auto& source : order) {
    ordered_json gpus = ordered_json::object();
    for (const auto& [index, samples] : by[source]) {
      const auto& id = samples.back()->gpu;
      ordered_json g;
      g["gpu_index"] = index;
      g["gpu_name"] = id.model_name;
      g["gpu_uuid"] = id.uuid;
      g["hostname"] = id.hostname;
      if (!id.pci_bus_id.empty()) g["pci_bus_id"] = id.pci_bus_id;
      if (!id.namespace_.empty()) g["namespace"] = id.namespace_;
      if (!id.pod.empty()) g["pod_name"] = id.pod;
      ordered_json metrics = ordered_json::object();
      for (int m = 0; m < telemetry::kGpuMetricCount; ++m) {
        const auto metric = static_cast<GpuMetric>(m);
        auto sum = telemetry::gpu_metric_summary(samples, metric, in.window);
        if (!sum) continue;
        const auto& i = telemetry::info(metric);
        metrics[std::string(i.tag)] = sum->counter
                                          ? counter_object(i.unit, sum->delta, sum->samples)
                                          : stats_object(i.unit, sum->stats);
      }
      for (const auto& field : in.custom_fields) {
        std::vector<double> values;
        for (const auto* s : samples)
          for (const auto& [tag, v] : s->custom)
            if (tag == field.tag && std::isfinite(v)) values.push_back(v);
        if (values.empty()) continue;
        const auto n = static_cast<std::int64_t>(values.size());
        metrics[field.tag] = field.counter ? counter_object("",
                                                            values.back() >= values.front()
                                                                ? values.back() - values.front()
                                                                : values.back(),
                                                            n)
                                           : stats_object("", core::compute_stats(values));
      }
      g["metrics"] = std::move(metrics);
      gpus["gpu_" + std::to_string(index)] = std::move(g);
    }
    endpoints[telemetry::endpoint_name(source)]["gpus"] = std::move(gpus);
  }
  j["endpoints"] = std::move(endpoints);
  return j;
}

telemetry::GpuTotals gpu_totals_from_telemetry_data(const ordered_json& t) {
  telemetry::GpuTotals out;
  if (!t.is_object() || !t.contains("endpoints")) return out;
  for (const auto& [name, endpoint] : t["endpoints"].items()) {
    if (!endpoint.contains("gpus")) continue;
    for (const auto& [key, gpu] : endpoint["gpus"].items()) {
      const auto& m = gpu.value("metrics", ordered_json::object());
      if (m.contains("gpu_power_usage") && m["gpu_power_usage"]["avg"].is_number())
        out.total_gpu_power_w =
            out.total_gpu_power_w.value_or(0.0) + m["gpu_power_usage"]["avg"].get<double>();
      if (m.contains("energy_consumption") && m["energy_consumption"]["avg"].is_number())
        out.total_gpu_energy_j = out.total_gpu_energy_j.value_or(0.0) +
                                 m["energy_consumption"]["avg"].get<double>() * 1e6;  // MJ -> J
    }
  }
  return out;
}

std::string gpu_telemetry_csv(const ordered_json& t) {
  if (t.is_null() || !t.contains("endpoints")) return {};
  bool host = false, ns = false, pod = false;
  for (const auto& [ep, e] : t["endpoints"].items()) {
    for (const auto& [key, g] : e["gpus"].items()) {
      host = host || !g.value("hostname", "").empty();
      ns = ns || g.contains("namespace");
      pod = pod || g.contains("pod_name");
    }
  }
  std::string out = "\r\n\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,sum";
  for (double p : core::kPercentiles) out += fmt::format(",p{}", static_cast<int>(p));
  out += ",std";
  if (host) out += ",Hostname";
  if (ns) out += ",Namespace";
  if (pod) out += ",Pod Name";
  out += "\r\n";
  auto cell = [](const ordered_json& m, const char* key) {
    return m.contains(key) && m[key].is_number() ? csv_number(m[key].get<double>(), false)
                                                 : std::string();
  };
  for (const auto& [ep, e] : t["endpoints"].items()) {
    for (const auto& [key, g] : e["gpus"].items()) {
      for (const auto& [tag, m] : g["metrics"].items()) {
        const auto [header, unit] = describe(tag, m);
        out += csv_field(ep) + "," + std::to_string(g.value("gpu_index", 0)) + "," +
               csv_field(g.value("gpu_name", "")) + "," + csv_field(g.value("gpu_uuid", "")) + "," +
               csv_field(metric_label(header, unit));
        for (const char* k : {"avg", "min", "max", "sum"}) out += "," + cell(m, k);
        for (double p : core::kPercentiles)
          out += "," + cell(m, fmt::format("p{}", static_cast<int>(p)).c_str());
        out += "," + cell(m, "std");
        if (host) out += "," + csv_field(g.value("hostname", ""));
        if (ns) out += "," + csv_field(g.value("namespace", ""));
        if (pod) out += "," + csv_field(g.value("pod_name", ""));
        out += "\r\n";
      }
    }
  }
  return out;
}

std::string render_gpu_telemetry(const ordered_json& t) {
  if (t.is_null() || !t.contains("summary")) return {};
  const auto& summary = t["summary"];
  const std::size_t configured = summary["endpoints_configured"].size();
  const std::size_t reachable = summary["endpoints_successful"].size();
  const bool nvml = configured == 1 && summary["endpoints_configured"][0] == "nvml";
  std::string out = fmt::format("{}/{} {} reachable\n", reachable, configured,
                                nvml ? "NVML sources" : "DCGM endpoints");
  auto num = [](const ordered_json& m, const char* key) {
    return m.contains(key) && m[key].is_number() ? with_thousands(m[key].get<double>())
                                                 : std::string("N/A");
  };
  for (const auto& [ep, e] : t["endpoints"].items()) {
    for (const auto& [key, g] : e["gpus"].items()) {
      std::vector<std::vector<std::string>> rows;
      for (const auto& [tag, m] : g["metrics"].items()) {
        const auto [header, unit] = describe(tag, m);
        rows.push_back({metric_label(header, unit), num(m, "avg"), num(m, "min"), num(m, "max"),
                        num(m, "p99"), num(m, "p90"), num(m, "p50"), num(m, "std")});
      }
      const std::string title = fmt::format("inferperf | GPU Telemetry Summary | {} | GPU {} | {}",
                                            ep, g.value("gpu_index", 0), g.value("gpu_name", ""));
      out +=
          render_table(title, {"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"}, rows, 1);
    }
  }
  return out;
}

void write_gpu_telemetry_jsonl(const std::vector<telemetry::GpuSample>& samples,
                               const core::WallAnchor& anchor, std::ostream& out) {
  for (const auto& s : samples) {
    ordered_json j;
    j["timestamp_ns"] = anchor.to_wall(s.mono_ns);
    j["dcgm_url"] = s.source;
    j["gpu_index"] = s.gpu.index;
    j["gpu_uuid"] = s.gpu.uuid;
    j["gpu_model_name"] = s.gpu.model_name;
    j["pci_bus_id"] = s.gpu.pci_bus_id;
    j["device"] = s.gpu.device;
    j["hostname"] = s.gpu.hostname;
    if (!s.gpu.namespace_.empty()) j["namespace"] = s.gpu.namespace_;
    if (!s.gpu.pod.empty()) j["pod"] = s.gpu.pod;
    ordered_json data = ordered_json::object();
    for (int m = 0; m < telemetry::kGpuMetricCount; ++m) {
      if (const auto& v = s.values[static_cast<std::size_t>(m)]; v && std::isfinite(*v))
        data[std::string(telemetry::kGpuMetrics[static_cast<std::size_t>(m)].tag)] = *v;
    }
    for (const auto& [tag, v] : s.custom)
      if (std::isfinite(v)) data[tag] = v;
    j["telemetry_data"] = std::move(data);
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
}

}  // namespace inferperf::report
