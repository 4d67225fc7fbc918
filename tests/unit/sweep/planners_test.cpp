// The search planners on known functions: isotonic regression against hand-worked fits, both
// planners' proposals against a metric whose threshold crossing is known, noise that breaks
// monotonicity, and the max-concurrency-under-sla recipe's expansion.
#include "sweep/planners.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {
namespace {

TEST(IsotonicFit, PoolsAdjacentViolators) {
  EXPECT_EQ(isotonic_fit({1, 3, 2, 4}, true), (std::vector<double>{1, 2.5, 2.5, 4}));
  EXPECT_EQ(isotonic_fit({5, 1, 1}, true), (std::vector<double>{7.0 / 3, 7.0 / 3, 7.0 / 3}));
  EXPECT_EQ(isotonic_fit({1, 2, 3}, true), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(isotonic_fit({3, 1, 2}, false), (std::vector<double>{3, 1.5, 1.5}));
  EXPECT_TRUE(isotonic_fit({}, true).empty());
}

// Runs a planner against metric(value) with one filter "x:p99:lt:threshold"; the values tried.
std::vector<long long> run(SearchPlanner& p, const std::function<double(long long)>& metric,
                           const SlaFilter& f) {
  std::vector<long long> tried;
  while (auto v = p.next()) {
    tried.push_back(*v);
    SlaCheck c;
    c.filter = &f;
    c.value = metric(*v);
    c.holds = sla_holds(f, *c.value);
    p.record(*v, c.holds, {c});
    if (tried.size() > 40) break;
  }
  return tried;
}

TEST(SmoothIsotonicPlanner, AimsAtTheCrossingOfALinearMetric) {
  // 5 + 10 (c - 1) under 30: holds up to 3 (the capacity mock's ITL).
  const SlaFilter f = *parse_sla_filter("inter_token_latency:p99:lt:30");
  const auto itl = [](long long c) { return 5.0 + 10.0 * static_cast<double>(c - 1); };
  SmoothIsotonicPlanner smooth(1, 100, {f});
  const auto tried = run(smooth, itl, f);
  EXPECT_EQ(smooth.largest_feasible(), 3);
  EXPECT_EQ(smooth.smallest_infeasible(), 4);
  EXPECT_EQ(smooth.reason(), "boundary_bracketed");
  // 1, 100, then the fit's crossing (3.5 -> 3), then 4: four runs where bisection needs nine.
  EXPECT_EQ(tried, (std::vector<long long>{1, 100, 3, 4}));
  MonotonicSlaPlanner bisect(1, 100);
  EXPECT_EQ(run(bisect, itl, f).size(), 9u);
  EXPECT_EQ(bisect.largest_feasible(), 3);
}

TEST(SmoothIsotonicPlanner, ConvergesOnCurvesAndNoiseWithinThriceBisection) {
  const SlaFilter f = *parse_sla_filter("request_latency:p99:lt:1000");
  const std::vector<std::function<double(long long)>> metrics = {
      [](long long c) { return 50.0 * std::exp(0.05 * static_cast<double>(c)); },  // convex
      [](long long c) { return 400.0 * std::sqrt(static_cast<double>(c)); },       // concave
      // Noisy and not monotone: +-60 around a line crossing 1000 at 47.5.
      [](long long c) {
        return 50.0 + 20.0 * static_cast<double>(c) + (c % 3 == 0 ? 60.0 : -60.0);
      },
  };
  for (std::size_t k = 0; k < metrics.size(); ++k) {
    SmoothIsotonicPlanner smooth(1, 500, {f});
    const auto tried = run(smooth, metrics[k], f);
    ASSERT_TRUE(smooth.largest_feasible()) << k;
    ASSERT_TRUE(smooth.smallest_infeasible()) << k;
    EXPECT_EQ(*smooth.smallest_infeasible() - *smooth.largest_feasible(), 1) << k;
    EXPECT_FALSE(sla_holds(f, metrics[k](*smooth.smallest_infeasible()))) << k;
    EXPECT_TRUE(sla_holds(f, metrics[k](*smooth.largest_feasible()))) << k;
    EXPECT_LE(tried.size(), 3u * (9 + 2)) << k;  // bisection over 1..500: 9 + lo and hi
  }
}

TEST(SearchPlanners, ByName) {
  const std::vector<SlaFilter> f = {*parse_sla_filter("a:avg:lt:1")};
  EXPECT_NE(dynamic_cast<SmoothIsotonicPlanner*>(make_planner("smooth_isotonic", 1, 9, f).get()),
            nullptr);
  EXPECT_NE(dynamic_cast<MonotonicSlaPlanner*>(make_planner("monotonic_sla", 1, 9, f).get()),
            nullptr);
}

TEST(SearchRecipe, MaxConcurrencyUnderSlaExpandsIntoASearch) {
  const auto s = extract_sweep_args({"profile", "-m", "x", "--streaming", "--search-recipe",
                                     "max-concurrency-under-sla", "--ttft-sla-ms", "500",
                                     "--tpot-sla-ms", "25.5", "--concurrency-max", "64"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  const SearchArgs& a = s.search;
  EXPECT_TRUE(a.enabled());
  EXPECT_EQ(a.planner, "smooth_isotonic");
  ASSERT_EQ(a.dimensions.size(), 1u);
  EXPECT_EQ(a.dimensions[0].path, "phases.profiling.concurrency");
  EXPECT_EQ(a.dimensions[0].lo, 1);
  EXPECT_EQ(a.dimensions[0].hi, 64);
  ASSERT_EQ(a.filters.size(), 2u);
  EXPECT_EQ(a.filters[0].text, "time_to_first_token:p99:lt:500");
  EXPECT_EQ(a.filters[1].text, "inter_token_latency:p99:lt:25.5");
  EXPECT_EQ(a.metric, "request_throughput");
  EXPECT_EQ(a.direction, "maximize");
  EXPECT_EQ(a.max_iterations, 24);  // 3 x (ceil(log2 63) + 2)

  const auto style = extract_sweep_args({"profile", "--search-recipe", "MAX_CONCURRENCY_UNDER_SLA",
                                         "--e2e-sla-ms", "900", "--search-style", "monotonic"});
  ASSERT_TRUE(style.errors.empty()) << style.errors.front();
  EXPECT_EQ(style.search.planner, "monotonic_sla");
  EXPECT_EQ(style.search.dimensions[0].hi, 1000);
  EXPECT_EQ(style.search.filters[0].text, "request_latency:p99:lt:900");

  const auto refused = [](const std::vector<std::string>& w, const std::string& why) {
    const auto r = extract_sweep_args(w);
    std::string all;
    for (const auto& e : r.errors) all += e + "\n";
    EXPECT_NE(all.find(why), std::string::npos) << all;
  };
  refused({"profile", "--search-recipe", "pareto-sweep", "--ttft-sla-ms", "5"},
          "--search-recipe pareto-sweep measures streamed tokens");
  refused({"profile", "--search-recipe", "max-concurrency-under-sla"}, "needs at least one of");
  refused({"profile", "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "5",
           "--search-style", "tpe"},
          "--search-style tpe");
  refused({"profile", "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "5",
           "--search-sla", "a:avg:lt:1"},
          "--search-recipe sets the search itself");
  refused({"profile", "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "-5"},
          "is not a number of ms above 0");
  refused({"profile", "--streaming", "--search-recipe", "max-concurrency-under-sla",
           "--ttft-sla-ms", "5", "--concurrency-min", "9", "--concurrency-max", "9"},
          "--concurrency-min (9) must be below --concurrency-max (9)");
  refused({"profile", "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "5",
           "--concurrency", "1,2"},
          "makes its own points: leave out the comma lists");
  refused({"profile", "--ttft-sla-ms", "5"},
          "--ttft-sla-ms is a knob of --search-recipe, which is not given");
  // A refused recipe says so once, without the errors of the search it did not become.
  const auto once = extract_sweep_args({"profile", "--search-recipe", "pareto-sweep"});
  EXPECT_EQ(once.errors.size(), 1u);
}

}  // namespace
}  // namespace inferperf::sweep
