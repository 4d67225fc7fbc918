#include "sweep/confidence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace inferperf::sweep {

namespace {

// Continued fraction of the incomplete beta function, evaluated with the modified Lentz method.
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double f = d;
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    // Even step.
    double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + num * d;
    c = 1.0 + num / c;
    if (std::fabs(d) < kTiny) d = kTiny;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    f *= d * c;
    // Odd step.
    num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + num * d;
    c = 1.0 + num / c;
    if (std::fabs(d) < kTiny) d = kTiny;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    f *= step;
    if (std::fabs(step - 1.0) < kEps) break;
  }
  return f;
}

// I_x(a, b), the regularized incomplete beta function.
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  // The fraction converges fast on one side of the mean; use the symmetry on the other.
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(a, b, x) / a;
  return 1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b;
}

// P(T <= t) for t >= 0.
double student_t_cdf_upper_half(double t, double dof) {
  return 1.0 - 0.5 * incomplete_beta(dof / 2.0, 0.5, dof / (dof + t * t));
}

}  // namespace

double student_t_quantile(double q, double dof) {
  if (q == 0.5) return 0.0;
  if (q < 0.5) return -student_t_quantile(1.0 - q, dof);
  double hi = 1.0;
  while (student_t_cdf_upper_half(hi, dof) < q && hi < 1e12) hi *= 2.0;
  double lo = 0.0;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf_upper_half(mid, dof) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

RunStats run_stats(const std::vector<double>& values, double confidence_level) {
  RunStats s;
  if (values.empty()) return s;
  const double n = static_cast<double>(values.size());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo;
  s.max = *hi;
  if (values.size() < 2) return s;
  double ss = 0;
  for (double v : values) ss += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(ss / (n - 1.0));
  s.se = *s.std / std::sqrt(n);
  s.t_critical = student_t_quantile(1.0 - (1.0 - confidence_level) / 2.0, n - 1.0);
  s.ci_low = s.mean - *s.t_critical * *s.se;
  s.ci_high = s.mean + *s.t_critical * *s.se;
  if (s.mean != 0) s.cv = *s.std / s.mean;
  return s;
}

namespace {

bool is_metric(const nlohmann::ordered_json& v) {
  return v.is_object() && v.contains("avg") && v["avg"].is_number() && v.contains("unit") &&
         v["unit"].is_string();
}

nlohmann::ordered_json opt(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

std::string csv_number(const nlohmann::ordered_json& v) {
  if (!v.is_number()) return "";
  return fmt::format("{:.6g}", v.get<double>());
}

}  // namespace

nlohmann::ordered_json aggregate_json(const std::vector<RunResult>& runs,
                                      const AggregateMeta& meta) {
  std::vector<const RunResult*> good;
  nlohmann::ordered_json failed = nlohmann::ordered_json::array();
  nlohmann::ordered_json labels = nlohmann::ordered_json::array();
  for (const auto& r : runs) {
    labels.push_back(r.label);
    if (r.ok) {
      good.push_back(&r);
    } else {
      failed.push_back({{"label", r.label}, {"error", r.error}});
    }
  }
  nlohmann::ordered_json out;
  out["metadata"] = {{"aggregation_type", "confidence"},
                     {"num_profile_runs", meta.num_profile_runs},
                     {"num_successful_runs", good.size()},
                     {"failed_runs", failed},
                     {"confidence_level", meta.confidence_level},
                     {"cooldown_seconds", meta.cooldown_s},
                     {"run_labels", labels}};
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  if (!good.empty()) {
    for (const auto& [tag, first] : good.front()->summary.items()) {
      if (!is_metric(first)) continue;
      std::vector<double> avgs;
      for (const auto* r : good) {
        const auto it = r->summary.find(tag);
        if (it != r->summary.end() && is_metric(*it)) avgs.push_back((*it)["avg"].get<double>());
      }
      // Only metrics every successful run has: a mean over some of them would mislead.
      if (avgs.size() != good.size()) continue;
      const RunStats s = run_stats(avgs, meta.confidence_level);
      metrics[tag] = {{"mean", s.mean},
                      {"std", opt(s.std)},
                      {"min", s.min},
                      {"max", s.max},
                      {"cv", opt(s.cv)},
                      {"se", opt(s.se)},
                      {"ci_low", opt(s.ci_low)},
                      {"ci_high", opt(s.ci_high)},
                      {"t_critical", opt(s.t_critical)},
                      {"unit", first["unit"]}};
    }
  }
  out["metrics"] = metrics;
  return out;
}

std::string aggregate_csv(const nlohmann::ordered_json& aggregate) {
  std::string out = "Metric,Unit,Mean,Std,Min,Max,CV,SE,CI Low,CI High,t Critical\n";
  for (const auto& [tag, m] : aggregate["metrics"].items()) {
    out +=
        fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", tag, m["unit"].get<std::string>(),
                    csv_number(m["mean"]), csv_number(m["std"]), csv_number(m["min"]),
                    csv_number(m["max"]), csv_number(m["cv"]), csv_number(m["se"]),
                    csv_number(m["ci_low"]), csv_number(m["ci_high"]), csv_number(m["t_critical"]));
  }
  return out;
}

}  // namespace inferperf::sweep
