#include "sweep/search_driver.hpp"

#include <cmath>

#include "sweep/bayesian_planner.hpp"
#include "sweep/sampling_design.hpp"
#include "sweep/sweep_words.hpp"

namespace inferperf::sweep {

SearchDriver::SearchDriver(const SearchArgs& s, std::uint64_t seed) : s_(s) {
  if (s.planner != "bayesian") {
    const SearchDimension& d = s.dimensions.front();
    bracket_ = make_planner(s.planner, std::llround(d.lo), std::llround(d.hi), s.filters);
    return;
  }
  std::vector<BoDimension> dims;
  for (const auto& d : s.dimensions) dims.push_back({d.lo, d.hi, d.integer, d.log_scale});
  // The start: a scrambled Sobol design, as AIPerf's planners seed their models.
  auto start = sobol_design(static_cast<std::size_t>(s.initial_points), dims.size(), seed);
  bayes_ = std::make_unique<BayesianPlanner>(std::move(dims), s.direction == "maximize",
                                             s.filters.size(), std::move(start), seed);
}

SearchDriver::~SearchDriver() = default;

std::optional<std::vector<double>> SearchDriver::next() {
  if (!reason_.empty()) return std::nullopt;
  // Before asking: a bayesian proposal costs a model fit.
  if (done_ >= s_.max_iterations.value_or(0) && (bayes_ || bracket_->next())) {
    reason_ = "max_iterations";
    return std::nullopt;
  }
  std::optional<std::vector<double>> out;
  if (bracket_) {
    if (const auto v = bracket_->next()) out = std::vector<double>{static_cast<double>(*v)};
  } else {
    out = bayes_->next();
  }
  if (!out) reason_ = bracket_ ? bracket_->reason() : "space_exhausted";
  return out;
}

void SearchDriver::record(const SearchIteration& it) {
  ++done_;
  if (bracket_) {
    bracket_->record(std::llround(it.values.front()), it.feasible, it.checks);
    return;
  }
  BoObservation obs{it.values, it.objective, {}};
  for (const auto& c : it.checks)
    obs.margins.push_back(filter_margin(c.filter->op, c.filter->threshold, c.value));
  bayes_->record(std::move(obs));
  // The model's start is not judged: patience and plateau count from its end.
  if (done_ <= s_.initial_points) return;
  const auto best = bayes_->best_so_far();
  const std::vector<std::optional<double>> since(best.begin() + s_.initial_points - 1, best.end());
  if (const auto stop = stop_rule(since)) reason_ = *stop;
}

std::uint64_t search_seed(const SearchArgs& s, const std::optional<std::string>& random_seed) {
  if (s.random_seed) return static_cast<std::uint64_t>(*s.random_seed);
  if (random_seed)
    if (const auto v = detail::parse_integer(*random_seed); v && *v >= 0)
      return static_cast<std::uint64_t>(*v);
  return 42;
}

}  // namespace inferperf::sweep
