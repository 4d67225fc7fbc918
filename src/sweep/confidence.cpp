#include "sweep/confidence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "core/version.hpp"
#include "report/export_parts.hpp"

namespace inferperf::sweep {

using report::csv_field;  // Python csv quoting, as every other CSV export

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
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x)) v.push_back(x);
  RunStats s;
  s.n = static_cast<int>(v.size());
  if (v.empty()) return s;
  const double n = static_cast<double>(v.size());
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  s.min = *lo;
  s.max = *hi;
  s.ci_low = s.ci_high = s.mean;
  if (v.size() < 2) return s;
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.std = std::sqrt(ss / (n - 1.0));
  s.se = s.std / std::sqrt(n);
  s.t_critical = student_t_quantile((1.0 + confidence_level) / 2.0, n - 1.0);
  s.ci_low = s.mean - *s.t_critical * s.se;
  s.ci_high = s.mean + *s.t_critical * s.se;
  s.cv = s.mean != 0 ? s.std / s.mean : std::numeric_limits<double>::infinity();
  return s;
}

namespace {

// The per-run statistics AIPerf 0.11 aggregates: avg, min, max, sum, std and p1..p99 (not count).
bool is_aggregated_stat(const std::string& stat) {
  if (stat == "avg" || stat == "min" || stat == "max" || stat == "sum" || stat == "std")
    return true;
  if (stat.size() < 2 || stat.size() > 3 || stat[0] != 'p' || stat[1] == '0') return false;
  return std::all_of(stat.begin() + 1, stat.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_metric_object(const nlohmann::ordered_json& v) {
  return v.is_object() && v.contains("unit") && v["unit"].is_string();
}

// A number JSON can hold; null for +-inf and NaN.
nlohmann::ordered_json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

std::string csv_fixed(double v, int decimals) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{:.{}f}", v, decimals);
}

// "confidence_level" -> "Confidence Level", as Python's key.replace("_", " ").title().
std::string title_case(const std::string& key) {
  std::string out;
  bool start = true;
  for (char c : key) {
    if (c == '_') c = ' ';
    const bool letter = std::isalpha(static_cast<unsigned char>(c)) != 0;
    out += letter ? static_cast<char>(start ? std::toupper(static_cast<unsigned char>(c))
                                            : std::tolower(static_cast<unsigned char>(c)))
                  : c;
    start = !letter;
  }
  return out;
}

std::string python_quoted(const std::string& s) {
  // repr() picks double quotes only when the text holds a single quote and no double quote.
  const bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == '\\' || c == q) out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + q;
}

}  // namespace

std::string python_float(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string python_str(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "None";
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_number_float()) return python_float(v.get<double>());
  if (v.is_number()) return v.dump();
  if (v.is_string()) return v.get<std::string>();
  std::string out = v.is_array() ? "[" : "{";
  bool first = true;
  for (const auto& [k, item] : v.items()) {
    if (!first) out += ", ";
    first = false;
    if (v.is_object()) out += python_quoted(k) + ": ";
    out += item.is_string() ? python_quoted(item.get<std::string>()) : python_str(item);
  }
  return out + (v.is_array() ? "]" : "}");
}

Aggregate aggregate_runs(const std::vector<RunResult>& runs, const AggregateMeta& meta) {
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
  Aggregate out;
  out.num_successful_runs = static_cast<int>(good.size());
  out.metadata = {
      {"aggregation_type", "confidence"},          {"num_profile_runs", meta.num_profile_runs},
      {"num_successful_runs", good.size()},        {"failed_runs", failed},
      {"confidence_level", meta.confidence_level}, {"run_labels", labels},
      {"cooldown_seconds", meta.cooldown_s}};
  if (good.size() == 1) out.metadata["single_run"] = true;
  for (const auto& [k, v] : meta.extra.items()) out.metadata[k] = v;

  // Keys in first-seen order over the runs, each with its unit (the first run's that has it).
  struct Key {
    std::string tag, stat, unit;
  };
  std::vector<Key> keys;
  std::set<std::string> seen;
  for (const auto* r : good) {
    for (const auto& [tag, m] : r->summary.items()) {
      if (!is_metric_object(m)) continue;
      for (const auto& [stat, v] : m.items()) {
        if (v.is_number() && is_aggregated_stat(stat) && seen.insert(tag + "_" + stat).second)
          keys.push_back({tag, stat, m["unit"]});
      }
    }
  }
  for (const auto& k : keys) {
    std::vector<double> values;
    for (const auto* r : good)
      if (const auto v = run_metric(*r, k.tag, k.stat)) values.push_back(*v);
    RunStats s = run_stats(values, meta.confidence_level);
    if (s.n > 0) out.metrics.push_back({k.tag + "_" + k.stat, k.unit, s});
  }
  return out;
}

namespace {

// request_error_rate for a run whose export has no such metric (AIPerf 0.11 has only the
// --error-rate-sla threshold on it): errors / (successes + errors), a fraction as the threshold
// is; a run with no error count had none.
std::optional<double> derived_error_rate(const RunResult& r) {
  const auto count = [&](const char* tag) -> std::optional<double> {
    const auto m = r.summary.find(tag);
    if (m == r.summary.end() || !m->is_object()) return std::nullopt;
    const auto v = m->find("avg");
    return v != m->end() && v->is_number() ? std::optional(v->get<double>()) : std::nullopt;
  };
  const double errors = count("error_request_count").value_or(0);
  const double ok = count("request_count").value_or(0);
  if (ok + errors <= 0) return std::nullopt;
  return errors / (ok + errors);
}

}  // namespace

std::optional<double> run_metric(const RunResult& r, const std::string& tag,
                                 const std::string& stat) {
  const auto m = r.summary.find(tag);
  if (m == r.summary.end() && tag == "request_error_rate") return derived_error_rate(r);
  if (m == r.summary.end() || !m->is_object()) return std::nullopt;
  const auto v = m->find(stat);
  if (v == m->end() || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

nlohmann::ordered_json aggregate_json(const Aggregate& a) {
  nlohmann::ordered_json out;
  out["schema_version"] = "1.0";
  out["aiperf_version"] = kAiperfFormatVersion;
  out["metadata"] = a.metadata;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const auto& m : a.metrics) {
    const RunStats& s = m.stats;
    metrics[m.key] = {{"mean", s.mean},
                      {"std", s.std},
                      {"min", s.min},
                      {"max", s.max},
                      {"cv", finite_or_null(s.cv)},
                      {"se", s.se},
                      {"ci_low", s.ci_low},
                      {"ci_high", s.ci_high},
                      {"t_critical", s.t_critical ? nlohmann::ordered_json(*s.t_critical)
                                                  : nlohmann::ordered_json(nullptr)},
                      {"unit", m.unit}};
  }
  out["metrics"] = metrics;
  return out;
}

std::string aggregate_csv(const Aggregate& a) {
  std::string out = "metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit\n";
  for (const auto& m : a.metrics) {
    const RunStats& s = m.stats;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(m.key), csv_fixed(s.mean, 2),
                       csv_fixed(s.std, 2), csv_fixed(s.min, 2), csv_fixed(s.max, 2),
                       csv_fixed(s.cv, 4), csv_fixed(s.se, 4), csv_fixed(s.ci_low, 2),
                       csv_fixed(s.ci_high, 2), s.t_critical ? csv_fixed(*s.t_critical, 4) : "",
                       csv_field(m.unit));
  }
  out += "\n";
  const auto& md = a.metadata;
  out += "Aggregation Type," + csv_field(python_str(md["aggregation_type"])) + "\n";
  out += "Total Runs," + python_str(md["num_profile_runs"]) + "\n";
  out += "Successful Runs," + python_str(md["num_successful_runs"]) + "\n";
  for (const auto& [k, v] : md.items()) {
    if (k == "aggregation_type" || k == "num_profile_runs" || k == "num_successful_runs") continue;
    out += csv_field(title_case(k)) + "," + csv_field(python_str(v)) + "\n";
  }
  return out;
}

}  // namespace inferperf::sweep
