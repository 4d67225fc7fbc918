// The bayesian search planner (AIPerf 0.11's --search-planner bayesian): which point of a box of
// dimensions (--search-space path:lo,hi[:int|real]) to benchmark next, given the objective and the
// SLA filters' values at the points run so far. A pure module: no I/O, no clock, and the same
// seed and observations always give the same proposals (the random stream is our own; between
// platforms only libm's and Eigen's last bits in exp and log could still tell builds apart).
//
// The caller's initial design (unit points, e.g. a Sobol sequence) is run first. After it, a
// Gaussian process (sweep/gaussian_process.hpp) models the objective and one more models each
// filter's margin, and the next point maximises constrained expected improvement (Gardner et al.
// 2014): EI over the best feasible objective so far, times the probability that every margin is
// positive. Until some point is feasible it maximises that probability alone, so an SLA nothing
// has met yet steers the search towards where it might be met.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::sweep {

struct BoDimension {
  double lo = 0, hi = 1;
  bool integer = false;    // proposals are whole numbers in [ceil(lo), floor(hi)]
  bool log_scale = false;  // modelled (and sampled) in log space; ignored unless lo > 0
};

struct BoObservation {
  std::vector<double> x;            // the point run, in the dimensions' units
  std::optional<double> objective;  // nullopt: not reported (the point is infeasible)
  std::vector<double> margins;      // one per SLA filter: see filter_margin
};

// A filter's margin in its own units, positive (or zero) when it holds: threshold - value for
// lt/le, value - threshold for gt/ge. A strict filter met with equality (value == threshold
// under lt/gt) gets the smallest negative double, so "margin >= 0" is exactly "the filter holds".
// NaN when the value is missing or the op unknown (treated as not holding).
double filter_margin(std::string_view op, double threshold, std::optional<double> value);

class BayesianPlanner {
 public:
  // `constraints`: how many SLA filters (margins per observation). `initial_unit_points`: the
  // initial design in [0,1]^d, mapped onto the dimensions (log ones in log space, integer ones
  // rounded) and run in order, skipping any that land on a point already run.
  BayesianPlanner(std::vector<BoDimension> dims, bool maximize, std::size_t constraints,
                  std::vector<std::vector<double>> initial_unit_points, std::uint64_t seed);
  ~BayesianPlanner();
  BayesianPlanner(BayesianPlanner&&) noexcept;
  BayesianPlanner& operator=(BayesianPlanner&&) noexcept;

  // The next point to run, never one proposed or recorded before; nullopt when nothing new is
  // left (an all-integer box run through). Meant to be followed by record() of that point.
  std::optional<std::vector<double>> next();
  void record(BoObservation obs);

  // Index (into observations()) of the best feasible observation, the earliest on ties.
  std::optional<std::size_t> best() const;
  // The objective is reported, every margin is present, finite and >= 0.
  bool feasible(std::size_t i) const;
  const std::vector<BoObservation>& observations() const { return obs_; }
  // After each observation, the best feasible objective so far (nullopt before the first
  // feasible one): stop_rule's input.
  std::vector<std::optional<double>> best_so_far() const;
  // How the last proposal was chosen, for logs: "initial", "random" (nothing to model yet),
  // "feasibility" (no feasible point yet) or "expected_improvement".
  const std::string& last_strategy() const { return strategy_; }

 private:
  struct Models;
  // The random stream and each GP's last hyperparameters, behind a pointer so that includers of
  // this header need not compile (or find) Eigen.
  struct Fits;
  std::vector<double> to_unit(const std::vector<double>& x) const;
  // Onto the box, snapped: integer coordinates rounded, everything clamped.
  std::vector<double> from_unit(const std::vector<double>& u) const;
  std::vector<long long> key(const std::vector<double>& x) const;
  bool visited(const std::vector<double>& x) const { return visited_.count(key(x)) > 0; }
  // Every point of an all-integer box with at most a few thousand, else nullopt.
  std::optional<std::vector<std::vector<double>>> lattice() const;
  Models fit_models();
  // Local rounds: perturbations (coarse, then fine) around the best-scoring candidates and the
  // incumbent, appended to `cands` and `scores`, since EI's optimum is often a narrow peak close
  // to the best point that few uniform candidates land on.
  void refine(const Models& m, std::vector<std::vector<double>>& cands,
              std::vector<double>& scores);
  std::optional<std::vector<double>> propose();

  std::vector<BoDimension> dims_;
  bool maximize_;
  std::size_t constraints_;
  std::vector<std::vector<double>> initial_;
  std::size_t next_initial_ = 0;
  std::unique_ptr<Fits> fits_;
  std::vector<BoObservation> obs_;
  std::set<std::vector<long long>> visited_;
  std::string strategy_;
};

// When an adaptive search stops early, given best_so_far (one entry per iteration, the best
// feasible objective after it; nullopt until there is one). Iterations before the first feasible
// one are not counted. With `last` the latest iteration and `first` the first feasible one:
//  - "patience": last - first >= patience and best[last] == best[last - patience], i.e. the best
//    has not strictly improved in the last `patience` iterations;
//  - "plateau": last - first >= plateau_window and
//    |best[last] - best[last - plateau_window]| < plateau_threshold * |best[last]|, i.e. over the
//    last `window` iterations the best moved by less than that fraction of itself.
// Patience is checked first. With the defaults a best that does not move at all trips plateau
// after 8 iterations, before patience's 10, unless it is exactly 0 (or the threshold is 0). A
// rule whose size is <= 0 is off. nullopt: go on.
std::optional<std::string> stop_rule(const std::vector<std::optional<double>>& best_so_far,
                                     int patience = 10, int plateau_window = 8,
                                     double plateau_threshold = 0.01);

}  // namespace inferperf::sweep
