// The search loop without the runs: a synthetic server answers each proposed point, and the
// driver must land where the formulas put the answer.
#include "sweep/search_driver.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {
namespace {

using Words = std::vector<std::string>;

// Runs the driver to its end; `metrics` gives the run's summary at a point.
std::vector<SearchIteration> drive(const SearchArgs& a, std::uint64_t seed,
                                   const std::function<nlohmann::ordered_json(double)>& metrics) {
  SearchDriver d(a, seed);
  std::vector<SearchIteration> its;
  while (const auto next = d.next()) {
    SearchIteration it;
    it.index = static_cast<int>(its.size()) + 1;
    it.values = *next;
    RunResult r;
    r.ok = true;
    r.summary = metrics(next->front());
    it.result.runs.push_back(r);
    it.checks = check_sla(a.filters, it.result);
    it.feasible = all_hold(it.checks);
    const auto v = point_metric(it.result, *a.metric, a.stat);
    if (v.is_number()) it.objective = v.get<double>();
    its.push_back(std::move(it));
    d.record(its.back());
  }
  EXPECT_FALSE(d.reason().empty());
  return its;
}

// A server whose ITL grows by 2 ms per stream (5 + 2 (C - 1)) and whose throughput grows with
// every stream: under ITL p99 < 50 the best concurrency is 23.
nlohmann::ordered_json server(double c) {
  return {{"inter_token_latency", {{"p99", 5 + 2 * (c - 1)}}},
          {"output_token_throughput", {{"avg", 100 * c / (1 + 0.01 * c)}}}};
}

SearchArgs resolved(Words extra) {
  Words w = {"profile", "-m", "x", "--streaming"};
  w.insert(w.end(), extra.begin(), extra.end());
  auto s = extract_sweep_args(w);
  EXPECT_TRUE(s.errors.empty()) << (s.errors.empty() ? "" : s.errors.front());
  return s.search;
}

TEST(SearchBoundary, TheLastPassBeforeTheFirstFailureAboveIt) {
  using P = std::vector<std::pair<double, bool>>;
  auto b = boundary_of(P{{8, true}, {1, true}, {16, false}, {4, true}});
  EXPECT_EQ(b.largest_feasible, 8);
  EXPECT_EQ(b.smallest_infeasible, 16);
  // A pass above the first failure is noise, not capacity; a failure below every pass bounds
  // nothing.
  b = boundary_of(P{{1, false}, {2, true}, {4, true}, {8, false}, {16, true}});
  EXPECT_EQ(b.largest_feasible, 4);
  EXPECT_EQ(b.smallest_infeasible, 8);
  b = boundary_of(P{{1, true}, {2, true}});
  EXPECT_EQ(b.largest_feasible, 2);
  EXPECT_FALSE(b.smallest_infeasible);
  b = boundary_of(P{{4, false}, {2, false}});
  EXPECT_FALSE(b.largest_feasible);
  EXPECT_EQ(b.smallest_infeasible, 2);
}

TEST(SearchDriver, BisectionLandsOnTheBoundary) {
  const auto a = resolved({"--search-space", "concurrency:1,64", "--search-metric",
                           "output_token_throughput", "--search-direction", "maximize",
                           "--search-max-iterations", "20", "--search-planner", "monotonic_sla",
                           "--search-sla", "inter_token_latency:p99:lt:50"});
  const auto its = drive(a, 1, server);
  const auto b = search_boundary(its);
  EXPECT_EQ(b.largest_feasible, 23);
  EXPECT_EQ(b.smallest_infeasible, 24);
  EXPECT_LE(its.size(), 9u);  // lo, hi and ceil(log2 63) halvings
}

TEST(SearchDriver, TheBayesianRecipeFindsTheBestFeasibleConcurrency) {
  // max-throughput-itl-sla: p95 ITL under 50 ms, maximising output token throughput over
  // concurrency 1..64 (log scale), 30 iterations at most.
  auto a = resolved({"--search-recipe", "max-throughput-itl-sla", "--itl-sla-ms", "50",
                     "--concurrency-max", "64"});
  ASSERT_EQ(a.planner, "bayesian");
  EXPECT_TRUE(a.dimensions[0].log_scale);
  const auto its = drive(a, 42, [](double c) {
    auto j = server(c);
    j["inter_token_latency"]["p95"] = j["inter_token_latency"]["p99"];
    return j;
  });
  const SearchIteration* best = best_iteration(a, its);
  ASSERT_NE(best, nullptr);
  EXPECT_EQ(best->values.front(), 23);
  EXPECT_LE(its.size(), 30u);
  std::set<double> tried;
  for (const auto& it : its) EXPECT_TRUE(tried.insert(it.values.front()).second);  // no repeats
  // The same seed proposes the same points.
  const auto again = drive(a, 42, [](double c) {
    auto j = server(c);
    j["inter_token_latency"]["p95"] = j["inter_token_latency"]["p99"];
    return j;
  });
  ASSERT_EQ(again.size(), its.size());
  for (std::size_t i = 0; i < its.size(); ++i) EXPECT_EQ(again[i].values, its[i].values);
}

TEST(SearchDriver, ABoxSmallerThanTheStartIsRunOnceThrough) {
  const auto a =
      resolved({"--search-space", "concurrency:1,3", "--search-metric", "output_token_throughput",
                "--search-direction", "maximize", "--search-max-iterations", "10"});
  const auto its = drive(a, 3, server);
  std::set<double> tried;
  for (const auto& it : its) EXPECT_TRUE(tried.insert(it.values.front()).second);
  EXPECT_EQ(tried, (std::set<double>{1, 2, 3}));
}

TEST(SearchDriver, BayesianOverTwoDimensionsAndItsStopRules) {
  // Minimise a bowl over concurrency x rate with its bottom at (12, 3.5).
  const auto a = resolved({"--search-space", "concurrency:1,32", "--search-space", "rate:0.5,8",
                           "--search-metric", "request_latency", "--search-direction", "minimize",
                           "--search-max-iterations", "40"});
  SearchDriver d(a, 7);
  std::vector<SearchIteration> its;
  while (const auto next = d.next()) {
    SearchIteration it;
    it.index = static_cast<int>(its.size()) + 1;
    it.values = *next;
    EXPECT_GE((*next)[1], 0.5);
    EXPECT_LE((*next)[1], 8.0);
    it.feasible = true;
    const double dc = (*next)[0] - 12, dr = (*next)[1] - 3.5;
    it.objective = 100 + dc * dc + 4 * dr * dr;
    its.push_back(std::move(it));
    d.record(its.back());
  }
  const SearchIteration* best = best_iteration(a, its);
  ASSERT_NE(best, nullptr);
  EXPECT_LT(*best->objective, 103.0);
  // It stops once the best stops moving (patience or plateau), before the 40 allowed.
  EXPECT_TRUE(d.reason() == "plateau" || d.reason() == "patience") << d.reason();
  EXPECT_LT(its.size(), 40u);
}

}  // namespace
}  // namespace inferperf::sweep
