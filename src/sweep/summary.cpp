#include "sweep/summary.hpp"

#include <fmt/format.h>

#include "report/console_table.hpp"
#include "report/format.hpp"
#include "sweep/pareto.hpp"

namespace inferperf::sweep {

namespace {

struct MetricSpec {
  const char* tag;
  std::vector<const char*> stats;
};

const std::vector<MetricSpec>& metric_specs() {
  static const std::vector<MetricSpec> k = {
      {"request_throughput", {"avg"}},
      {"output_token_throughput", {"avg"}},
      {"output_token_throughput_per_user", {"avg"}},
      {"time_to_first_token", {"avg", "p50", "p90", "p99"}},
      {"inter_token_latency", {"avg", "p50", "p90", "p99"}},
      {"request_latency", {"avg", "p50", "p90", "p99"}},
      {"request_count", {"avg"}},
      {"error_request_count", {"avg"}},
  };
  return k;
}

// "4" -> 4, "2.5" -> 2.5: the summary carries parameter values as numbers.
nlohmann::ordered_json as_number(const std::string& v) {
  auto j = nlohmann::ordered_json::parse(v, nullptr, false);
  return j.is_number() ? j : nlohmann::ordered_json(v);
}

std::optional<double> number_at(const nlohmann::ordered_json& metrics, const char* tag) {
  const auto it = metrics.find(tag);
  if (it == metrics.end() || !it->contains("avg") || !(*it)["avg"].is_number()) return std::nullopt;
  return (*it)["avg"].get<double>();
}

std::string cell(const nlohmann::ordered_json& metrics, const char* tag, const char* stat) {
  const auto it = metrics.find(tag);
  if (it == metrics.end() || !it->contains(stat) || !(*it)[stat].is_number()) return "N/A";
  return report::with_thousands((*it)[stat].get<double>());
}

nlohmann::ordered_json at_or_null(const nlohmann::ordered_json& obj, const std::string& key) {
  const auto it = obj.find(key);
  return it == obj.end() ? nlohmann::ordered_json(nullptr) : *it;
}

std::string csv_cell(const nlohmann::ordered_json& v) {
  if (v.is_number()) return fmt::format("{}", v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_string()) return v.get<std::string>();
  return "";
}

}  // namespace

const std::vector<std::string>& summary_metric_keys() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> out;
    for (const auto& m : metric_specs())
      for (const char* s : m.stats) out.push_back(std::string(m.tag) + "." + s);
    return out;
  }();
  return k;
}

nlohmann::ordered_json point_metric(const PointResult& p, const std::string& tag,
                                    const std::string& stat) {
  double sum = 0;
  int n = 0;
  for (const auto& r : p.runs) {
    if (!r.ok) continue;
    if (!r.summary.contains(tag) && tag == "error_request_count" && stat == "avg") {
      ++n;  // the export leaves the error count out when there were none
      continue;
    }
    const auto v = run_metric(r, tag, stat);
    if (!v) continue;
    sum += *v;
    ++n;
  }
  return n == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(sum / n);
}

nlohmann::ordered_json sweep_summary_json(const std::vector<SweepParam>& params,
                                          const std::vector<PointResult>& points,
                                          const SweepOptions& options) {
  nlohmann::ordered_json out;
  nlohmann::ordered_json param_list = nlohmann::ordered_json::array();
  for (const auto& p : params) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (const auto& v : p.values) values.push_back(as_number(v));
    param_list.push_back({{"name", p.name}, {"flag", p.flag}, {"values", values}});
  }
  out["metadata"] = {{"sweep_type", options.sweep_type},
                     {"parameters", param_list},
                     {"num_points", points.size()},
                     {"num_profile_runs", options.num_profile_runs},
                     {"sweep_cooldown_seconds", options.sweep_cooldown_s},
                     {"cache_salt_per_run", options.cache_salt_per_run}};

  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::vector<ParetoPoint> vs_itl, vs_ttft;
  for (const auto& p : points) {
    nlohmann::ordered_json j;
    j["label"] = p.point.label;
    j["folder"] = p.point.folder;
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < params.size() && k < p.point.values.size(); ++k)
      if (!p.point.values[k].empty()) values[params[k].name] = as_number(p.point.values[k]);
    j["parameters"] = values;
    int ok = 0;
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (const auto& r : p.runs) {
      if (r.ok) {
        ++ok;
      } else {
        failed.push_back({{"label", r.label}, {"error", r.error}});
      }
    }
    j["status"] = ok == 0 ? "failed" : ok == static_cast<int>(p.runs.size()) ? "ok" : "partial";
    j["num_runs"] = p.runs.size();
    j["num_successful_runs"] = ok;
    j["failed_runs"] = failed;
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const auto& m : metric_specs()) {
      nlohmann::ordered_json one;
      for (const auto& r : p.runs) {
        if (!r.ok) continue;
        const auto it = r.summary.find(m.tag);
        if (it != r.summary.end() && it->contains("unit")) {
          one["unit"] = (*it)["unit"];
          break;
        }
      }
      if (!one.contains("unit") && std::string(m.tag) == "error_request_count")
        one["unit"] = "requests";
      bool any = false;
      for (const char* s : m.stats) {
        one[s] = point_metric(p, m.tag, s);
        any |= !one[s].is_null();
      }
      if (any) metrics[m.tag] = one;
    }
    const auto thr = number_at(metrics, "output_token_throughput");
    vs_itl.push_back({thr, number_at(metrics, "inter_token_latency")});
    vs_ttft.push_back({thr, number_at(metrics, "time_to_first_token")});
    j["metrics"] = metrics;
    list.push_back(std::move(j));
  }
  const auto on_itl = pareto_frontier(vs_itl);
  const auto on_ttft = pareto_frontier(vs_ttft);
  nlohmann::ordered_json front_itl = nlohmann::ordered_json::array();
  nlohmann::ordered_json front_ttft = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    list[i]["pareto_throughput_vs_itl"] = static_cast<bool>(on_itl[i]);
    list[i]["pareto_throughput_vs_ttft"] = static_cast<bool>(on_ttft[i]);
    if (on_itl[i]) front_itl.push_back(list[i]["label"]);
    if (on_ttft[i]) front_ttft.push_back(list[i]["label"]);
  }
  out["points"] = list;
  out["pareto_frontier"] = {
      {"x", "output_token_throughput.avg (higher is better)"},
      {"throughput_vs_itl", front_itl},
      {"throughput_vs_ttft", front_ttft},
  };
  return out;
}

std::string sweep_summary_csv(const nlohmann::ordered_json& summary) {
  std::vector<std::string> params;
  for (const auto& p : summary["metadata"]["parameters"]) params.push_back(p["name"]);
  std::string out = "label,folder";
  for (const auto& p : params) out += "," + p;
  out += ",status,num_runs,num_successful_runs";
  for (const auto& m : metric_specs())
    for (const char* s : m.stats) out += fmt::format(",{}_{}", m.tag, s);
  out += ",pareto_throughput_vs_itl,pareto_throughput_vs_ttft\n";
  for (const auto& pt : summary["points"]) {
    // Labels hold spaces and '=' only; folder names neither commas nor quotes.
    out += csv_cell(pt["label"]) + "," + csv_cell(pt["folder"]);
    for (const auto& p : params) out += "," + csv_cell(at_or_null(pt["parameters"], p));
    out += "," + csv_cell(pt["status"]) + "," + csv_cell(pt["num_runs"]) + "," +
           csv_cell(pt["num_successful_runs"]);
    for (const auto& m : metric_specs()) {
      const auto& metrics = pt["metrics"];
      for (const char* s : m.stats) {
        const auto it = metrics.find(m.tag);
        out += "," + (it == metrics.end() ? std::string() : csv_cell(at_or_null(*it, s)));
      }
    }
    out += "," + csv_cell(pt["pareto_throughput_vs_itl"]) + "," +
           csv_cell(pt["pareto_throughput_vs_ttft"]) + "\n";
  }
  return out;
}

std::string sweep_summary_table(const nlohmann::ordered_json& summary) {
  const std::vector<std::string> header = {
      "Point",        "Status",           "Req/s",         "Out tok/s",
      "Tok/s/user",   "TTFT avg (ms)",    "TTFT p99 (ms)", "ITL avg (ms)",
      "ITL p99 (ms)", "Latency avg (ms)", "Errors",        "Pareto"};
  std::vector<std::vector<std::string>> rows;
  for (const auto& pt : summary["points"]) {
    const auto& m = pt["metrics"];
    std::string pareto;
    if (pt["pareto_throughput_vs_itl"].get<bool>()) pareto = "ITL";
    if (pt["pareto_throughput_vs_ttft"].get<bool>()) pareto += pareto.empty() ? "TTFT" : "+TTFT";
    rows.push_back({pt["label"].get<std::string>(), pt["status"].get<std::string>(),
                    cell(m, "request_throughput", "avg"), cell(m, "output_token_throughput", "avg"),
                    cell(m, "output_token_throughput_per_user", "avg"),
                    cell(m, "time_to_first_token", "avg"), cell(m, "time_to_first_token", "p99"),
                    cell(m, "inter_token_latency", "avg"), cell(m, "inter_token_latency", "p99"),
                    cell(m, "request_latency", "avg"), cell(m, "error_request_count", "avg"),
                    pareto.empty() ? "-" : pareto});
  }
  std::string out = report::render_table("inferperf | Sweep Summary", header, rows, 2);
  out +=
      "Pareto: on the frontier of output token throughput (higher is better) against ITL or "
      "TTFT average (lower is better).\n";
  return out;
}

}  // namespace inferperf::sweep
