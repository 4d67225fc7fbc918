#include "sweep/convergence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/statistics.hpp"
#include "core/version.hpp"

namespace inferperf::sweep {

double ConvergenceOptions::effective_threshold() const {
  if (threshold) return *threshold;
  return mode == "ci_width" ? 0.10 : 0.05;
}

ConvergenceResult trial_convergence(const std::string& mode, const std::vector<double>& values,
                                    double threshold, double confidence_level) {
  ConvergenceResult r;
  r.runs = static_cast<int>(values.size());
  const RunStats s = run_stats(values, confidence_level);
  if (s.n < 2 || s.mean == 0) {
    r.detail = s.n < 2 ? "fewer than 2 values" : "the mean is 0";
    return r;
  }
  const double v = mode == "cv" ? s.std / std::fabs(s.mean)
                                : 2.0 * s.t_critical.value_or(0) * s.se / std::fabs(s.mean);
  r.value = v;
  r.converged = v < threshold;
  r.detail = fmt::format("{} {:.4g} {} {}", mode, v, r.converged ? "<" : ">=", threshold);
  return r;
}

double ks_statistic(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double na = static_cast<double>(a.size());
  const double nb = static_cast<double>(b.size());
  std::size_t i = 0, j = 0;
  double d = 0;
  // Walk both samples in order; after every distinct value both CDFs are exact.
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] == x) ++i;
    while (j < b.size() && b[j] == x) ++j;
    d = std::max(d, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
  }
  return d;
}

double ks_p_value(double d, std::size_t na, std::size_t nb) {
  if (na == 0 || nb == 0) return 1.0;
  const double en =
      std::sqrt(static_cast<double>(na) * static_cast<double>(nb) / static_cast<double>(na + nb));
  const double lambda = (en + 0.12 + 0.11 / en) * d;
  if (lambda < 0.2) return 1.0;  // the series below is exactly 1 to double precision there
  // Q_KS(lambda) = 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 lambda^2).
  double sum = 0;
  double sign = 1;
  for (int k = 1; k <= 100; ++k) {
    const double term = sign * std::exp(-2.0 * k * k * lambda * lambda);
    sum += term;
    if (std::fabs(term) < 1e-12 * std::fabs(sum)) break;
    sign = -sign;
  }
  return std::clamp(2.0 * sum, 0.0, 1.0);
}

ConvergenceResult distribution_convergence(const std::vector<std::vector<double>>& per_run,
                                           double threshold) {
  ConvergenceResult r;
  r.runs = static_cast<int>(per_run.size());
  if (per_run.size() < 2) {
    r.detail = "fewer than 2 runs";
    return r;
  }
  std::vector<double> earlier;
  for (std::size_t k = 0; k + 1 < per_run.size(); ++k)
    earlier.insert(earlier.end(), per_run[k].begin(), per_run[k].end());
  const auto& last = per_run.back();
  if (earlier.empty() || last.empty()) {
    r.detail = "no per-request values";
    return r;
  }
  const double p = ks_p_value(ks_statistic(last, earlier), last.size(), earlier.size());
  r.value = p;
  r.converged = p > threshold;
  r.detail = fmt::format("KS p-value {:.4g} {} {}", p, r.converged ? ">" : "<=", threshold);
  return r;
}

ConvergenceResult check_convergence(const ConvergenceOptions& o, const std::vector<RunResult>& runs,
                                    double confidence_level, const PerRequestValues& per_request) {
  std::vector<const RunResult*> ok;
  for (const auto& r : runs)
    if (r.ok) ok.push_back(&r);
  ConvergenceResult out;
  out.runs = static_cast<int>(ok.size());
  if (static_cast<int>(ok.size()) < o.min_runs) {
    out.detail = fmt::format("{} of at least {} runs", ok.size(), o.min_runs);
    return out;
  }
  const std::string& tag = *o.metric;
  if (o.mode == "distribution") {
    std::vector<std::vector<double>> values;
    for (const RunResult* r : ok) values.push_back(per_request(*r, tag));
    return distribution_convergence(values, o.effective_threshold());
  }
  std::vector<double> values;
  for (const RunResult* r : ok) {
    const auto v = run_metric(*r, tag, o.stat);
    if (!v) {
      out.detail = fmt::format("{} {} missing in {}", tag, o.stat, r->label);
      return out;
    }
    values.push_back(*v);
  }
  return trial_convergence(o.mode, values, o.effective_threshold(), confidence_level);
}

nlohmann::ordered_json convergence_json(const ConvergenceOptions& o, const ConvergenceResult& r) {
  nlohmann::ordered_json j;
  j["metric"] = *o.metric;
  j["stat"] = o.stat;
  j["mode"] = o.mode;
  j["threshold"] = o.effective_threshold();
  j["min_runs"] = o.min_runs;
  j["converged"] = r.converged;
  j["runs"] = r.runs;
  j["value"] = r.value ? nlohmann::ordered_json(*r.value) : nlohmann::ordered_json(nullptr);
  j["detail"] = r.detail;
  return j;
}

namespace {

nlohmann::ordered_json value_stats(std::vector<double> values) {
  const core::Stats s = core::compute_stats(std::move(values));
  if (s.count == 0)
    return {{"mean", nullptr}, {"std", nullptr}, {"p50", nullptr}, {"p90", nullptr},
            {"p95", nullptr},  {"p99", nullptr}, {"count", 0}};
  return {{"mean", s.avg},           {"std", s.std},
          {"p50", s.percentile(50)}, {"p90", s.percentile(90)},
          {"p95", s.percentile(95)}, {"p99", s.percentile(99)},
          {"count", s.count}};
}

}  // namespace

nlohmann::ordered_json collated_json(const std::vector<RunValues>& runs,
                                     const nlohmann::ordered_json& metadata) {
  // Metric tags in first-seen order.
  std::vector<std::string> tags;
  for (const auto& run : runs)
    for (const auto& [tag, values] : run.metrics)
      if (std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.push_back(tag);
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const auto& tag : tags) {
    std::vector<double> pooled;
    nlohmann::ordered_json per_run = nlohmann::ordered_json::array();
    for (const auto& run : runs) {
      for (const auto& [t, values] : run.metrics) {
        if (t != tag) continue;
        pooled.insert(pooled.end(), values.begin(), values.end());
        nlohmann::ordered_json one = value_stats(values);
        one["run_label"] = run.label;
        per_run.push_back(std::move(one));
      }
    }
    metrics[tag] = {{"combined", value_stats(std::move(pooled))}, {"per_run", std::move(per_run)}};
  }
  nlohmann::ordered_json out;
  out["schema_version"] = "1.0.0";
  out["aiperf_version"] = kAiperfFormatVersion;
  out["description"] =
      "Per-request values of every run pooled: each metric's statistics over all requests of all "
      "runs (combined) and of each run (per_run)";
  out["metadata"] = metadata;
  out["metrics"] = std::move(metrics);
  return out;
}

}  // namespace inferperf::sweep
