#include "sweep/sweep_aggregate.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "sweep/pareto.hpp"

namespace inferperf::sweep {

namespace {

using ojson = nlohmann::ordered_json;

ojson number_or_text(const std::string& v) {
  auto j = ojson::parse(v, nullptr, false);
  return j.is_number() ? j : ojson(v);
}

ojson finite_or_null_value(double v) {
  return std::isfinite(v) ? ojson(v) : ojson(nullptr);
}

// Several trials: "<tag>_<stat>" keys with the cross-trial statistics.
ojson trial_metrics(const Aggregate& a) {
  ojson out = ojson::object();
  for (const auto& m : a.metrics) {
    const RunStats& s = m.stats;
    out[m.key] = {{"mean", s.mean},
                  {"std", s.std},
                  {"min", s.min},
                  {"max", s.max},
                  {"cv", finite_or_null_value(s.cv)},
                  {"ci_low", s.ci_low},
                  {"ci_high", s.ci_high},
                  {"unit", m.unit}};
  }
  return out;
}

// One trial: AIPerf 0.11 keys the metrics by the plain tag, each the run's own statistics with
// `mean` (its avg) in front and std/cv 0.
ojson single_trial_metrics(const std::vector<RunResult>& runs) {
  ojson out = ojson::object();
  for (const auto& r : runs) {
    if (!r.ok) continue;
    for (const auto& [tag, m] : r.summary.items()) {
      if (!m.is_object() || !m.contains("unit") || !m.contains("avg") || !m["avg"].is_number())
        continue;
      ojson one = {{"mean", m["avg"]}};
      for (const auto& [k, v] : m.items()) one[k] = v;
      one["std"] = 0.0;
      one["cv"] = 0.0;
      out[tag] = one;
    }
    break;
  }
  return out;
}

// The mean of `key` in a variation's metrics, when it has one.
std::optional<double> mean_of(const ojson& metrics, const char* key) {
  const auto it = metrics.find(key);
  if (it == metrics.end() || !it->contains("mean") || !(*it)["mean"].is_number())
    return std::nullopt;
  return (*it)["mean"].get<double>();
}

// The variation with the highest (or lowest) mean of `key`: {parameters, metric, unit}; null
// when none has it.
ojson best_by(const ojson& combos, const char* key, bool highest) {
  const ojson* best = nullptr;
  double best_value = 0;
  for (const auto& c : combos) {
    const auto v = mean_of(c["metrics"], key);
    if (!v) continue;
    if (!best || (highest ? *v > best_value : *v < best_value)) {
      best = &c;
      best_value = *v;
    }
  }
  if (!best) return nullptr;
  return {{"parameters", (*best)["parameters"]},
          {"metric", best_value},
          {"unit", (*best)["metrics"][key]["unit"]}};
}

}  // namespace

ojson variation_values(const std::vector<SweepParam>& params, const SweepPoint& point) {
  ojson out = ojson::object();
  for (std::size_t k = 0; k < params.size() && k < point.values.size(); ++k)
    if (!point.values[k].empty())
      out[params[k].path.empty() ? params[k].name : params[k].path] =
          number_or_text(point.values[k]);
  return out;
}

ojson sweep_aggregate_json(const std::vector<SweepParam>& params,
                           const std::vector<VariationResult>& variations,
                           const SweepOptions& options) {
  int total = 0, ok = 0;
  ojson failed = ojson::array();
  ojson combos = ojson::array();
  for (const auto& v : variations) {
    for (const auto& r : v.runs) {
      ++total;
      if (r.ok) {
        ++ok;
      } else {
        failed.push_back(
            {{"label", r.label}, {"variation", v.point.variation_label}, {"error", r.error}});
      }
    }
    combos.push_back({{"parameters", variation_values(params, v.point)},
                      {"metrics", options.num_profile_runs > 1 ? trial_metrics(v.aggregate)
                                                               : single_trial_metrics(v.runs)}});
  }
  ojson sweep_params = ojson::array();
  for (const auto& p : params) {
    ojson values = ojson::array();
    for (const auto& v : p.values) values.push_back(number_or_text(v));
    sweep_params.push_back({{"name", p.path.empty() ? p.name : p.path}, {"values", values}});
  }
  ojson out;
  out["aggregation_type"] = "sweep";
  out["num_profile_runs"] = total;
  out["num_successful_runs"] = ok;
  out["failed_runs"] = failed;
  out["metadata"] = {{"sweep_parameters", sweep_params},
                     {"num_combinations", variations.size()},
                     {"aggregation_type", "sweep"},
                     {"sweep_mode", options.sweep_mode},
                     {"confidence_level", options.confidence_level},
                     {"num_trials_per_value", options.num_profile_runs}};
  out["per_combination_metrics"] = combos;

  // Looked up as "<tag>_avg"/"<tag>_p99": with one trial (plain tags) nothing matches, so the
  // best configurations stay {} and the Pareto list [] as in AIPerf 0.11.
  ojson best = ojson::object();
  if (auto b = best_by(combos, "request_throughput_avg", true); !b.is_null())
    best["best_throughput"] = b;
  ojson lat = best_by(combos, "time_to_first_token_p99", false);
  if (lat.is_null()) lat = best_by(combos, "request_latency_p99", false);
  if (!lat.is_null()) best["best_latency_p99"] = lat;
  out["best_configurations"] = best;

  std::vector<ParetoPoint> pts;
  for (const auto& c : combos)
    pts.push_back({mean_of(c["metrics"], "request_throughput_avg"),
                   mean_of(c["metrics"], "time_to_first_token_p99")});
  const auto on = pareto_frontier(pts);
  ojson pareto = ojson::array();
  for (std::size_t i = 0; i < combos.size(); ++i)
    if (on[i]) pareto.push_back(combos[i]["parameters"]);
  out["pareto_optimal"] = pareto;
  return out;
}

namespace {

std::string sweep_csv_number(const ojson& v, int decimals) {
  if (!v.is_number()) return v.is_null() ? "inf" : "";
  return fmt::format("{:.{}f}", v.get<double>(), decimals);
}

std::string sweep_csv_text(const ojson& v) {
  std::string s = v.is_string() ? v.get<std::string>() : python_str(v);
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string join_cells(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
  return out + "\n";
}

std::string parameters_text(const ojson& params) {
  std::string out;
  for (const auto& [k, v] : params.items())
    out += (out.empty() ? "" : ", ") + k + "=" + python_str(v);
  return out;
}

}  // namespace

std::string sweep_aggregate_csv(const ojson& sweep) {
  std::vector<std::string> names;
  for (const auto& p : sweep["metadata"]["sweep_parameters"]) names.push_back(p["name"]);
  std::vector<std::string> keys;  // metric keys in first-seen order
  std::set<std::string> seen;
  for (const auto& c : sweep["per_combination_metrics"])
    for (const auto& [k, v] : c["metrics"].items())
      if (seen.insert(k).second) keys.push_back(k);

  static const std::vector<std::pair<const char*, int>> kStats = {
      {"mean", 2}, {"std", 2}, {"min", 2}, {"max", 2}, {"cv", 4}};
  std::vector<std::string> header = names;
  for (const auto& k : keys)
    for (const auto& [stat, d] : kStats) header.push_back(k + "_" + stat);
  std::string out = join_cells(header);
  for (const auto& c : sweep["per_combination_metrics"]) {
    std::vector<std::string> row;
    for (const auto& n : names) row.push_back(sweep_csv_text(c["parameters"].value(n, ojson())));
    for (const auto& k : keys) {
      const auto it = c["metrics"].find(k);
      for (const auto& [stat, d] : kStats) {
        const bool has = it != c["metrics"].end() && it->contains(stat);
        row.push_back(has ? sweep_csv_number((*it)[stat], d) : "");
      }
    }
    out += join_cells(row);
  }
  out += "\nBest Configurations\n";
  if (!sweep["best_configurations"].empty()) {
    out += "Configuration,Parameters,Metric,Unit\n";
    for (const auto& [name, b] : sweep["best_configurations"].items())
      out += join_cells({name, sweep_csv_text(parameters_text(b["parameters"])),
                         sweep_csv_number(b["metric"], 2), sweep_csv_text(b["unit"])});
  }
  out += "\nPareto Optimal Points\n";
  if (sweep["pareto_optimal"].empty()) {
    out += "None\n";
  } else {
    out += join_cells(names);
    for (const auto& p : sweep["pareto_optimal"]) {
      std::vector<std::string> row;
      for (const auto& n : names) row.push_back(sweep_csv_text(p.value(n, ojson())));
      out += join_cells(row);
    }
  }
  out += "\nMetadata\nField,Value\n";
  for (const char* k : {"aggregation_type", "num_profile_runs", "num_successful_runs"})
    out += join_cells({k, sweep_csv_text(sweep[k])});
  for (const auto& [k, v] : sweep["metadata"].items())
    if (k != "aggregation_type") out += join_cells({k, sweep_csv_text(v)});
  return out;
}

}  // namespace inferperf::sweep
