// The search planners: which value to run next on one whole-number axis, given what the runs so
// far said. Both assume the SLA gets harder to meet as the value grows (load, prompt length), keep
// the largest value that met every filter and the smallest that did not, and stop when the two are
// one apart. monotonic_sla bisects; smooth_isotonic fits each filter's values to a monotone curve
// and aims at where the fitted curve crosses its threshold.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sweep/sla.hpp"

namespace inferperf::sweep {

class SearchPlanner {
 public:
  SearchPlanner(long long lo, long long hi) : lo_(lo), hi_(hi) {}
  virtual ~SearchPlanner() = default;
  SearchPlanner(const SearchPlanner&) = delete;
  SearchPlanner& operator=(const SearchPlanner&) = delete;

  // The next value to run; nullopt when the search is over (reason() says why). Always lo first
  // (if it fails nothing can pass), then hi (if it passes the whole range does), then values
  // strictly between the largest pass and the smallest failure.
  std::optional<long long> next() const;
  // What a run of `value` said: whether every filter held, and each filter's value.
  void record(long long value, bool feasible, const std::vector<SlaCheck>& checks);
  std::optional<long long> largest_feasible() const { return good_; }
  std::optional<long long> smallest_infeasible() const { return bad_; }
  // "boundary_bracketed" (a pass and a failure one apart), "upper_bound_feasible",
  // "lower_bound_infeasible", or "" while the search goes on.
  std::string reason() const;

 protected:
  // A value strictly between good and bad (bad - good >= 2).
  virtual long long between(long long good, long long bad) const = 0;
  virtual void observe(long long /*value*/, const std::vector<SlaCheck>& /*checks*/) {}

 private:
  long long lo_, hi_;
  bool lo_tried_ = false;
  std::optional<long long> good_, bad_;
};

// monotonic_sla: the midpoint.
class MonotonicSlaPlanner final : public SearchPlanner {
 public:
  using SearchPlanner::SearchPlanner;

 protected:
  long long between(long long good, long long bad) const override;
};

// smooth_isotonic: each filter's values against the axis are fitted with isotonic regression
// (pool-adjacent-violators; rising for lt/le filters, falling for gt/ge), the fitted points joined
// by straight lines, and the next value is the largest whole number before the first crossing of
// any threshold, inside the bracket (just above the largest pass when that is where the fit
// crosses). When the fit does not cross inside the bracket, or the last two proposals each left
// more than half of it, the midpoint is taken instead, so it never needs more than about three
// times bisection's iterations.
class SmoothIsotonicPlanner final : public SearchPlanner {
 public:
  SmoothIsotonicPlanner(long long lo, long long hi, std::vector<SlaFilter> filters);

 protected:
  long long between(long long good, long long bad) const override;
  void observe(long long value, const std::vector<SlaCheck>& checks) override;

 private:
  std::vector<SlaFilter> filters_;
  // Per filter, (axis value, metric value) of every run that reported it.
  std::vector<std::vector<std::pair<double, double>>> points_;
  std::vector<long long> widths_;  // the bracket's width after each run once both ends are known
};

// Pool-adjacent-violators: the non-decreasing sequence closest to `y` in least squares (points in
// axis order, equal weights); `rising` false fits a non-increasing one.
std::vector<double> isotonic_fit(const std::vector<double>& y, bool rising);

// The planner --search-planner (or a recipe's --search-style) names: "monotonic_sla" or
// "smooth_isotonic".
std::unique_ptr<SearchPlanner> make_planner(const std::string& name, long long lo, long long hi,
                                            const std::vector<SlaFilter>& filters);

}  // namespace inferperf::sweep
