#include "sweep/planners.hpp"

#include <algorithm>
#include <cmath>

namespace inferperf::sweep {

std::optional<long long> SearchPlanner::next() const {
  if (!lo_tried_) return lo_;
  if (!good_) return std::nullopt;  // lo failed
  if (!bad_) return *good_ == hi_ ? std::nullopt : std::optional<long long>(hi_);
  if (*bad_ - *good_ <= 1) return std::nullopt;
  return between(*good_, *bad_);
}

void SearchPlanner::record(long long value, bool feasible, const std::vector<SlaCheck>& checks) {
  if (value == lo_) lo_tried_ = true;
  if (feasible) {
    if (!good_ || value > *good_) good_ = value;
  } else if (!bad_ || value < *bad_) {
    bad_ = value;
  }
  observe(value, checks);
}

std::string SearchPlanner::reason() const {
  if (next()) return "";
  if (!good_) return "lower_bound_infeasible";
  if (!bad_) return "upper_bound_feasible";
  return "boundary_bracketed";
}

long long MonotonicSlaPlanner::between(long long good, long long bad) const {
  return good + (bad - good) / 2;
}

std::vector<double> isotonic_fit(const std::vector<double>& y, bool rising) {
  // Blocks of pooled points: (mean, count); a new point merges backwards while it breaks the order.
  std::vector<std::pair<double, int>> blocks;
  for (double v : y) {
    blocks.emplace_back(rising ? v : -v, 1);
    while (blocks.size() > 1 && blocks[blocks.size() - 2].first > blocks.back().first) {
      auto [m2, n2] = blocks.back();
      blocks.pop_back();
      auto& [m1, n1] = blocks.back();
      m1 = (m1 * n1 + m2 * n2) / (n1 + n2);
      n1 += n2;
    }
  }
  std::vector<double> out;
  for (const auto& [m, n] : blocks) out.insert(out.end(), n, rising ? m : -m);
  return out;
}

SmoothIsotonicPlanner::SmoothIsotonicPlanner(long long lo, long long hi,
                                             std::vector<SlaFilter> filters)
    : SearchPlanner(lo, hi), filters_(std::move(filters)), points_(filters_.size()) {}

void SmoothIsotonicPlanner::observe(long long value, const std::vector<SlaCheck>& checks) {
  for (std::size_t k = 0; k < checks.size() && k < points_.size(); ++k)
    if (checks[k].value) points_[k].emplace_back(static_cast<double>(value), *checks[k].value);
  const auto good = largest_feasible();
  const auto bad = smallest_infeasible();
  if (good && bad) widths_.push_back(*bad - *good);
}

namespace {

// Where the straight-line join of the fitted points first fails `f`, searching from `from`;
// nullopt when it never does after it.
std::optional<double> first_crossing(const SlaFilter& f, std::vector<std::pair<double, double>> pts,
                                     double from) {
  std::sort(pts.begin(), pts.end());
  std::vector<double> y;
  for (const auto& p : pts) y.push_back(p.second);
  const bool rising = f.op == "lt" || f.op == "le";
  const std::vector<double> fit = isotonic_fit(y, rising);
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const double x0 = pts[i - 1].first, x1 = pts[i].first;
    if (x1 <= from) continue;
    const bool ok0 = sla_holds(f, fit[i - 1]), ok1 = sla_holds(f, fit[i]);
    if (!ok0 && x0 >= from) return x0;
    if (ok0 && !ok1 && fit[i] != fit[i - 1]) {
      const double share = (f.threshold - fit[i - 1]) / (fit[i] - fit[i - 1]);
      return x0 + std::clamp(share, 0.0, 1.0) * (x1 - x0);
    }
  }
  return std::nullopt;
}

}  // namespace

long long SmoothIsotonicPlanner::between(long long good, long long bad) const {
  const long long mid = good + (bad - good) / 2;
  // The last two proposals each left more than half the bracket: bisect once.
  const auto n = widths_.size();
  if (n >= 3 && widths_[n - 1] * 2 > widths_[n - 2] && widths_[n - 2] * 2 > widths_[n - 3])
    return mid;
  std::optional<double> crossing;
  for (std::size_t k = 0; k < filters_.size(); ++k) {
    if (points_[k].size() < 2) continue;
    const auto c = first_crossing(filters_[k], points_[k], static_cast<double>(good));
    if (c && (!crossing || *c < *crossing)) crossing = c;
  }
  if (!crossing) return mid;
  // The largest whole value still inside the fit's feasible side, kept strictly inside.
  const auto aim = static_cast<long long>(std::floor(*crossing));
  return std::clamp(aim, good + 1, bad - 1);
}

std::unique_ptr<SearchPlanner> make_planner(const std::string& name, long long lo, long long hi,
                                            const std::vector<SlaFilter>& filters) {
  if (name == "smooth_isotonic") return std::make_unique<SmoothIsotonicPlanner>(lo, hi, filters);
  return std::make_unique<MonotonicSlaPlanner>(lo, hi);
}

}  // namespace inferperf::sweep
