// The outer loop of a search, without the runs: which point to run next and when to stop, for
// every --search-planner. monotonic_sla and smooth_isotonic bracket one whole-number axis
// (sweep/planners.hpp); bayesian proposes points of the whole box (sweep/bayesian_planner.hpp)
// from a Sobol start of --search-initial-points. The stop reasons are AIPerf 0.11's: the
// planner's own ("boundary_bracketed", "upper_bound_feasible", "lower_bound_infeasible",
// "space_exhausted"), "max_iterations", and for bayesian "patience" (10 iterations without a
// better feasible objective) or "plateau" (less than 1 % better over the last 8).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sweep/search.hpp"

namespace inferperf::sweep {

class BayesianPlanner;

class SearchDriver {
 public:
  // `seed`: the bayesian planner's (its Sobol scramble and candidates); the others need none.
  SearchDriver(const SearchArgs& s, std::uint64_t seed);
  ~SearchDriver();
  SearchDriver(const SearchDriver&) = delete;
  SearchDriver& operator=(const SearchDriver&) = delete;

  // The next point (one value per dimension); nullopt when the search is over (reason()).
  std::optional<std::vector<double>> next();
  // What the point next() gave said.
  void record(const SearchIteration& it);
  const std::string& reason() const { return reason_; }
  int iterations() const { return done_; }

 private:
  const SearchArgs& s_;
  std::unique_ptr<SearchPlanner> bracket_;  // monotonic_sla, smooth_isotonic
  std::unique_ptr<BayesianPlanner> bayes_;  // bayesian
  int done_ = 0;
  std::string reason_;
};

// The bayesian seed: --search-random-seed, else --random-seed, else 42 (every search reproducible
// unless told otherwise).
std::uint64_t search_seed(const SearchArgs& s, const std::optional<std::string>& random_seed);

}  // namespace inferperf::sweep
