#include "sweep/recipe_post.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/load_boundary.hpp"
#include "core/pareto.hpp"

namespace inferperf::sweep {

namespace {

using ojson = nlohmann::ordered_json;

core::Error post_error(const RecipePost& post, const std::string& why) {
  return core::Error{core::ErrorKind::kConfig, post.handler + ": " + why};
}

// The point's value of the swept option `name`, as a number.
std::optional<double> axis(const std::vector<SweepParam>& params, const PointResult& p,
                           const std::string& name) {
  for (std::size_t k = 0; k < params.size() && k < p.point.values.size(); ++k)
    if (params[k].name == name && !p.point.values[k].empty())
      return std::strtod(p.point.values[k].c_str(), nullptr);
  return std::nullopt;
}

std::optional<double> value(const PointResult& p, const std::string& tag, const std::string& stat) {
  const auto v = point_metric(p, tag, stat);
  if (!v.is_number() || !std::isfinite(v.get<double>())) return std::nullopt;
  return v.get<double>();
}

// The metric's unit as the runs export it ("ms"), or "".
std::string unit_of(const std::vector<PointResult>& points, const std::string& tag) {
  for (const auto& p : points)
    for (const auto& r : p.runs)
      if (r.ok)
        if (const auto m = r.summary.find(tag); m != r.summary.end() && m->contains("unit"))
          return (*m)["unit"].get<std::string>();
  return "";
}

ojson number(double v) {
  return v == std::floor(v) && std::abs(v) < 1e15 ? ojson(static_cast<long long>(v)) : ojson(v);
}

ojson header(const RecipePost& post, const std::vector<PointResult>& points) {
  return {{"handler", post.handler},
          {"metric_tag", post.metric_tag},
          {"stat", post.stat},
          {"unit", unit_of(points, post.metric_tag)}};
}

// (axis value, metric value) of every point that has both, ascending by axis.
std::vector<std::pair<double, double>> series(const RecipePost& post,
                                              const std::vector<SweepParam>& params,
                                              const std::vector<PointResult>& points,
                                              const std::string& name) {
  std::vector<std::pair<double, double>> out;
  for (const auto& p : points) {
    const auto x = axis(params, p, name);
    const auto y = value(p, post.metric_tag, post.stat);
    if (x && y) out.push_back({*x, *y});
  }
  std::sort(out.begin(), out.end());
  return out;
}

core::Result<ojson> knee(const RecipePost& post, const std::vector<SweepParam>& params,
                         const std::vector<PointResult>& points) {
  const auto s = series(post, params, points, "concurrency");
  if (s.size() < 2)
    return post_error(post, fmt::format("{} {} is known at {} concurrency level(s); the knee "
                                        "needs a baseline and one more",
                                        post.metric_tag, post.stat, s.size()));
  ojson out = header(post, points);
  const double base = s.front().second, limit = base * (1 + post.threshold);
  out["threshold_pct"] = post.threshold;
  out["swept_param"] = "phases.profiling.concurrency";
  out["baseline_concurrency"] = number(s.front().first);
  out["baseline_value"] = base;
  out["degradation_limit"] = limit;
  out["knee_concurrency"] = nullptr;
  out["knee_value"] = nullptr;
  ojson all = ojson::array();
  for (const auto& [c, v] : s) {
    const bool degraded = v > limit;
    if (degraded && out["knee_concurrency"].is_null()) {
      out["knee_concurrency"] = number(c);
      out["knee_value"] = v;
    }
    all.push_back({{"concurrency", number(c)}, {"value", v}, {"degraded", degraded}});
  }
  out["all_points"] = all;
  return out;
}

core::Result<ojson> curve(const RecipePost& post, const std::vector<SweepParam>& params,
                          const std::vector<PointResult>& points) {
  const auto s = series(post, params, points, "isl");
  std::vector<double> x, y;
  for (const auto& [a, b] : s) {
    x.push_back(a);
    y.push_back(b);
  }
  const auto line = poly_fit(x, y, 1);
  if (!line)
    return post_error(post, fmt::format("{} {} is known at {} input length(s); a fit needs two",
                                        post.metric_tag, post.stat, s.size()));
  // A line that explains under 85 % of the variance: prefill cost grows faster than linearly.
  const auto quad = line->r_squared < 0.85 ? poly_fit(x, y, 2) : std::nullopt;
  const PolyFit& fit = quad ? *quad : *line;
  ojson out = header(post, points);
  out["swept_param"] = "datasets.main.prompts.isl.mean";
  out["fit_form"] = quad ? "quadratic" : "linear";
  out["coefficients"] = fit.coefficients;
  out["r_squared"] = fit.r_squared;
  out["linear_fit"] = {{"coefficients", line->coefficients}, {"r_squared", line->r_squared}};
  ojson pts = ojson::array();
  for (const auto& [a, b] : s) pts.push_back({{"isl", number(a)}, {"value", b}});
  out["points"] = pts;
  return out;
}

core::Result<ojson> surface(const RecipePost& post, const std::vector<SweepParam>& params,
                            const std::vector<PointResult>& points) {
  std::map<double, std::map<double, double>> grid;  // concurrency -> osl -> value
  std::vector<double> osls;
  ojson pts = ojson::array();
  for (const auto& p : points) {
    const auto c = axis(params, p, "concurrency"), o = axis(params, p, "osl");
    const auto v = value(p, post.metric_tag, post.stat);
    if (!c || !o) continue;
    if (std::find(osls.begin(), osls.end(), *o) == osls.end()) osls.push_back(*o);
    grid[*c];
    if (v) grid[*c][*o] = *v;
    pts.push_back({{"concurrency", number(*c)},
                   {"osl", number(*o)},
                   {"value", v ? ojson(*v) : ojson(nullptr)}});
  }
  std::sort(osls.begin(), osls.end());
  std::size_t known = 0;
  for (const auto& [c, row] : grid) known += row.size();
  if (known < 2)
    return post_error(
        post, fmt::format("{} {} is known at {} grid point(s)", post.metric_tag, post.stat, known));
  ojson out = header(post, points);
  out["concurrency_param"] = "phases.profiling.concurrency";
  out["osl_param"] = "datasets.main.prompts.osl.mean";
  ojson cs = ojson::array(), os = ojson::array(), rows = ojson::array();
  for (const double o : osls) os.push_back(number(o));
  for (const auto& [c, row] : grid) {
    cs.push_back(number(c));
    ojson r = ojson::array();
    for (const double o : osls) r.push_back(row.count(o) ? ojson(row.at(o)) : ojson(nullptr));
    rows.push_back(r);
  }
  out["concurrency_values"] = cs;
  out["osl_values"] = os;
  out["grid"] = rows;  // grid[i][j]: concurrency_values[i], osl_values[j]
  out["interpolation"] = "bilinear";
  out["points"] = pts;
  return out;
}

core::Result<ojson> pareto(const RecipePost& post, const std::vector<SweepParam>& params,
                           const std::vector<PointResult>& points) {
  std::vector<std::pair<double, double>> xy;
  std::vector<const PointResult*> with;
  for (const auto& p : points) {
    const auto x = value(p, "time_to_first_token", "p95");
    const auto y = value(p, "output_token_throughput", "avg");
    if (!x || !y) continue;
    xy.push_back({*x, *y});
    with.push_back(&p);
  }
  if (xy.empty())
    return post_error(post,
                      "no point has both time_to_first_token p95 and "
                      "output_token_throughput avg");
  const auto mask = core::pareto_mask(xy, false, true);
  ojson out = {{"handler", post.handler},
               {"x_metric", "time_to_first_token"},
               {"x_stat", "p95"},
               {"x_unit", unit_of(points, "time_to_first_token")},
               {"y_metric", "output_token_throughput"},
               {"y_stat", "avg"},
               {"y_unit", unit_of(points, "output_token_throughput")}};
  ojson pts = ojson::array(), frontier = ojson::array();
  std::vector<std::pair<double, std::string>> front;
  for (std::size_t i = 0; i < with.size(); ++i) {
    ojson j = {{"name", with[i]->point.label}};
    for (const char* k : {"isl", "osl", "concurrency"})
      if (const auto v = axis(params, *with[i], k)) j[k] = number(*v);
    j["x"] = xy[i].first;
    j["y"] = xy[i].second;
    j["pareto_optimal"] = static_cast<bool>(mask[i]);
    pts.push_back(j);
    if (mask[i]) front.push_back({xy[i].first, with[i]->point.label});
  }
  std::sort(front.begin(), front.end());
  for (const auto& [x, name] : front) frontier.push_back(name);
  out["points"] = pts;
  out["frontier"] = frontier;  // lowest TTFT first
  return out;
}

core::Result<ojson> breach(const RecipePost& post, const std::vector<SweepParam>& params,
                           const std::vector<PointResult>& points,
                           const std::vector<SlaFilter>& filters) {
  std::vector<std::pair<double, const PointResult*>> order;
  for (const auto& p : points)
    if (const auto c = axis(params, p, "concurrency")) order.push_back({*c, &p});
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  if (order.empty()) return post_error(post, "no concurrency level ran");
  ojson out = {{"handler", post.handler}, {"filters", ojson::array()}};
  for (const auto& f : filters) out["filters"].push_back(f.text);
  ojson pts = ojson::array();
  std::vector<std::pair<double, bool>> judged;
  for (const auto& [c, p] : order) {
    const auto checks = check_sla(filters, *p);
    const bool ok = all_hold(checks);
    ojson values = ojson::object();
    for (const auto& ch : checks)
      values[ch.filter->text] = ch.value ? ojson(*ch.value) : ojson(nullptr);
    pts.push_back({{"concurrency", number(c)}, {"feasible", ok}, {"values", values}});
    judged.push_back({c, ok});
  }
  // The boundary rule every capacity answer uses (core/load_boundary.hpp).
  const core::LoadBoundary b = core::load_boundary(std::move(judged));
  const auto first_breach = b.largest_passing ? b.first_failing_above : b.smallest_failing;
  out["last_feasible_concurrency"] = b.largest_passing ? number(*b.largest_passing) : nullptr;
  out["first_breach_concurrency"] = first_breach ? number(*first_breach) : nullptr;
  out["points"] = pts;
  return out;
}

}  // namespace

std::optional<PolyFit> poly_fit(const std::vector<double>& x, const std::vector<double>& y,
                                int degree) {
  std::vector<double> distinct = x;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (x.size() != y.size() || static_cast<int>(distinct.size()) < degree + 1) return std::nullopt;
  const auto n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd a(n, degree + 1);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (int d = 0; d <= degree; ++d) a(i, d) = std::pow(x[i], degree - d);
    b(i) = y[i];
  }
  const Eigen::VectorXd c = a.colPivHouseholderQr().solve(b);
  PolyFit out;
  for (Eigen::Index d = 0; d <= degree; ++d) out.coefficients.push_back(c(d));
  const double mean = b.mean();
  const double ss_res = (a * c - b).squaredNorm();
  const double ss_tot = (b.array() - mean).square().sum();
  out.r_squared = ss_tot > 0 ? 1 - ss_res / ss_tot : 1.0;
  return out;
}

std::optional<double> bilinear(const std::vector<double>& xs, const std::vector<double>& ys,
                               const std::vector<std::vector<double>>& z, double x, double y) {
  if (xs.empty() || ys.empty()) return std::nullopt;
  // The cell [i, i+1] holding v (the last cell's index for values past the edge, clamped).
  const auto cell = [](const std::vector<double>& v, double& at) {
    at = std::clamp(at, v.front(), v.back());
    if (v.size() == 1) return std::pair<std::size_t, double>{0, 0.0};
    std::size_t i = std::upper_bound(v.begin(), v.end(), at) - v.begin();
    i = std::clamp<std::size_t>(i, 1, v.size() - 1) - 1;
    return std::pair<std::size_t, double>{i, (at - v[i]) / (v[i + 1] - v[i])};
  };
  const auto [i, tx] = cell(xs, x);
  const auto [j, ty] = cell(ys, y);
  const std::size_t i1 = std::min(i + 1, xs.size() - 1), j1 = std::min(j + 1, ys.size() - 1);
  const double q00 = z[i][j], q01 = z[i][j1], q10 = z[i1][j], q11 = z[i1][j1];
  if (std::isnan(q00) || std::isnan(q01) || std::isnan(q10) || std::isnan(q11)) return std::nullopt;
  return (1 - tx) * ((1 - ty) * q00 + ty * q01) + tx * ((1 - ty) * q10 + ty * q11);
}

core::Result<nlohmann::ordered_json> recipe_post_json(const RecipePost& post,
                                                      const std::vector<SweepParam>& params,
                                                      const std::vector<PointResult>& points,
                                                      const std::vector<SlaFilter>& filters) {
  if (post.handler == "degradation_knee_detect") return knee(post, params, points);
  if (post.handler == "ttft_curve_fit") return curve(post, params, points);
  if (post.handler == "itl_surface_fit") return surface(post, params, points);
  if (post.handler == "pareto_sweep_export") return pareto(post, params, points);
  if (post.handler == "sla_breach_knee") return breach(post, params, points, filters);
  return post_error(post, "no such post-processing step");
}

std::string recipe_post_line(const RecipePost& post, const nlohmann::ordered_json& r) {
  const auto num = [](const ojson& v) {
    return v.is_number() ? fmt::format("{:.4g}", v.get<double>()) : std::string("none");
  };
  if (post.handler == "degradation_knee_detect") {
    if (r["knee_concurrency"].is_null())
      return fmt::format(
          "Knee: none up to the largest concurrency ({} {} stayed within {:.0f} % "
          "of {} {} at concurrency {})",
          post.metric_tag, post.stat, 100 * post.threshold, num(r["baseline_value"]),
          r["unit"].get<std::string>(), num(r["baseline_concurrency"]));
    return fmt::format(
        "Knee: concurrency {} ({} {} {} {} > {} = baseline {} at concurrency {} "
        "x {:.2f})",
        num(r["knee_concurrency"]), post.metric_tag, post.stat, num(r["knee_value"]),
        r["unit"].get<std::string>(), num(r["degradation_limit"]), num(r["baseline_value"]),
        num(r["baseline_concurrency"]), 1 + post.threshold);
  }
  if (post.handler == "ttft_curve_fit") {
    std::string terms;
    const auto& c = r["coefficients"];
    if (c.size() == 2)
      terms = fmt::format("{:.4g} x ISL + {:.4g}", c[0].get<double>(), c[1].get<double>());
    else
      terms = fmt::format("{:.4g} x ISL^2 + {:.4g} x ISL + {:.4g}", c[0].get<double>(),
                          c[1].get<double>(), c[2].get<double>());
    return fmt::format("Prefill curve ({}): TTFT = {} {} (r^2 {:.3f})",
                       r["fit_form"].get<std::string>(), terms, r["unit"].get<std::string>(),
                       r["r_squared"].get<double>());
  }
  if (post.handler == "itl_surface_fit")
    return fmt::format("Decode surface: {} {} over {} concurrency x {} OSL levels", post.metric_tag,
                       post.stat, r["concurrency_values"].size(), r["osl_values"].size());
  if (post.handler == "pareto_sweep_export") {
    std::string names;
    for (const auto& n : r["frontier"]) names += (names.empty() ? "" : ", ") + n.get<std::string>();
    return "Pareto frontier (TTFT p95 vs output token throughput): " + names;
  }
  return fmt::format("SLA breach: last concurrency meeting every filter {}, first breaking one {}",
                     num(r["last_feasible_concurrency"]), num(r["first_breach_concurrency"]));
}

}  // namespace inferperf::sweep
