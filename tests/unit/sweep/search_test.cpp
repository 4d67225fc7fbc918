// The search pieces without a server: SLA filters parsed and checked on a point's runs, the
// --search-* words resolved (and every bad combination refused with its reason), the
// monotonic_sla planner's bisection, and search_history.json built from iterations.
#include "sweep/search.hpp"

#include <gtest/gtest.h>

#include "sweep/sla.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {
namespace {

using Words = std::vector<std::string>;

TEST(SlaFilter, ParsesTheFourPartsAndNamesTheBadOne) {
  auto f = parse_sla_filter("time_to_first_token:p99:lt:500");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->tag, "time_to_first_token");
  EXPECT_EQ(f->stat, "p99");
  EXPECT_EQ(f->op, "lt");
  EXPECT_EQ(f->threshold, 500);
  EXPECT_EQ(f->text, "time_to_first_token:p99:lt:500");
  EXPECT_EQ(parse_sla_filter("request_throughput:avg:ge:2.5")->threshold, 2.5);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"time_to_first_token:p99:lt", "3 parts, 4 expected"},
      {"time_to_first_token:p99:lt:500:1", "5 parts"},
      {"TTFT:p99:lt:500", "metric tag"},
      {":p99:lt:500", "metric tag"},
      {"time_to_first_token:p98:lt:500", "stat 'p98'"},
      {"time_to_first_token:p99:<:500", "operator '<'"},
      {"time_to_first_token:p99:lt:fast", "threshold 'fast'"},
      {"time_to_first_token:p99:lt:", "threshold ''"},
      {"time_to_first_token:p99:lt:inf", "threshold 'inf'"},
      {"time_to_first_token:p99:lt:5e999", "threshold"},
  };
  for (const auto& [text, why] : bad) {
    const auto r = parse_sla_filter(text);
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find(why), std::string::npos) << text << ": " << r.error().message;
    EXPECT_NE(r.error().message.find("metric_tag:stat:op:threshold"), std::string::npos);
  }
}

TEST(SlaFilter, OperatorsAndMissingValues) {
  const auto at = [](const char* text, double v) { return sla_holds(*parse_sla_filter(text), v); };
  EXPECT_TRUE(at("x:avg:lt:5", 4.9));
  EXPECT_FALSE(at("x:avg:lt:5", 5));
  EXPECT_TRUE(at("x:avg:le:5", 5));
  EXPECT_FALSE(at("x:avg:gt:5", 5));
  EXPECT_TRUE(at("x:avg:ge:5", 5));
  EXPECT_FALSE(at("x:avg:ge:5", std::nan("")));

  // The value is the mean over the point's successful runs; a metric no run has never holds.
  PointResult p;
  for (double v : {10.0, 30.0, 99.0}) {
    RunResult r;
    r.ok = v < 90;  // the third run failed: not counted
    r.summary["time_to_first_token"] = {{"unit", "ms"}, {"p99", v}};
    p.runs.push_back(r);
  }
  const std::vector<SlaFilter> filters = {*parse_sla_filter("time_to_first_token:p99:lt:25"),
                                          *parse_sla_filter("time_to_first_token:p99:lt:15"),
                                          *parse_sla_filter("inter_token_latency:p99:lt:9")};
  const auto checks = check_sla(filters, p);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[0].value, 20.0);
  EXPECT_TRUE(checks[0].holds);
  EXPECT_FALSE(checks[1].holds);
  EXPECT_FALSE(checks[2].value.has_value());
  EXPECT_FALSE(checks[2].holds);
  EXPECT_FALSE(all_hold(checks));
  EXPECT_TRUE(all_hold({checks[0]}));
  EXPECT_EQ(describe_sla_value(filters[1], 20.0), "time_to_first_token p99 20.00 (needs < 15.00)");
  EXPECT_EQ(describe_sla_value(filters[2], std::nullopt),
            "inter_token_latency p99 missing (needs < 9.00)");
}

Words search_words(Words extra) {
  Words w = {"profile",
             "-m",
             "x",
             "--search-space",
             "phases.profiling.concurrency:1,64",
             "--search-metric",
             "request_throughput",
             "--search-direction",
             "maximize",
             "--search-max-iterations",
             "8",
             "--search-planner",
             "monotonic_sla",
             "--search-sla",
             "time_to_first_token:p99:lt:500"};
  w.insert(w.end(), extra.begin(), extra.end());
  return w;
}

TEST(SearchArgs, AValidSearchResolvesItsDimensionAndFilters) {
  const auto s = extract_sweep_args(
      search_words({"--search-sla=inter_token_latency:p99:le:50", "--search-stat", "p99",
                    "--search-initial-points", "3", "--search-random-seed", "7"}));
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_TRUE(s.orchestrated());
  EXPECT_EQ(s.base, (Words{"profile", "-m", "x"}));
  const SearchArgs& a = s.search;
  ASSERT_EQ(a.dimensions.size(), 1u);
  EXPECT_EQ(a.dimensions[0].path, "phases.profiling.concurrency");
  EXPECT_EQ(a.dimensions[0].flag, "--concurrency");
  EXPECT_EQ(a.dimensions[0].lo, 1);
  EXPECT_EQ(a.dimensions[0].hi, 64);
  EXPECT_EQ(a.stat, "p99");
  EXPECT_EQ(a.planner, "monotonic_sla");
  ASSERT_EQ(a.filters.size(), 2u);
  EXPECT_EQ(a.filters[1].op, "le");
  EXPECT_EQ(a.initial_points, 3);
  EXPECT_EQ(a.random_seed, 7);

  // A bare profiling name, and a float flag's values written as floats.
  const auto r = extract_sweep_args(search_words({}));
  Words words = search_words({});
  words[4] = "rate:2,20:int";
  const auto rate = extract_sweep_args(words);
  ASSERT_TRUE(rate.errors.empty()) << rate.errors.front();
  EXPECT_EQ(rate.search.dimensions[0].path, "phases.profiling.rate");
  EXPECT_EQ(dimension_value(rate.search.dimensions[0], 8), "8.0");
  EXPECT_EQ(dimension_value(r.search.dimensions[0], 8), "8");
}

TEST(SearchArgs, EveryBadCombinationIsRefusedWithItsReason) {
  const auto refused = [](const Words& w, const std::string& why) {
    const auto s = extract_sweep_args(w);
    std::string all;
    for (const auto& e : s.errors) all += e + "\n";
    EXPECT_NE(all.find(why), std::string::npos) << "expected '" << why << "' in:\n" << all;
  };
  refused({"profile", "--search-metric", "x"}, "need --search-space");
  refused({"profile", "--search-sla", "a:avg:lt:1"},
          "--search-sla needs --search-space or a sweep");
  refused(search_words({"--concurrency", "1,2"}), "cannot be combined with a comma list");
  Words no_metric = search_words({});
  no_metric.erase(no_metric.begin() + 5, no_metric.begin() + 7);
  refused(no_metric, "needs --search-metric, --search-direction and --search-max-iterations");
  refused(search_words({"--search-direction", "up"}), "'up' is not maximize or minimize");
  refused(search_words({"--search-stat", "p98"}), "'p98' is not avg, p50, p90, p95 or p99");
  refused(search_words({"--search-metric", "Thr"}), "not a metric tag");
  refused(search_words({"--search-planner", "optuna"}), "optuna's samplers are not implemented");
  refused(search_words({"--search-space", "rate:1,4:real"}), "searches one dimension");
  refused(search_words({"--search-initial-points", "8", "--search-planner", "bayesian"}),
          "--search-initial-points (8) must be below --search-max-iterations");
  EXPECT_TRUE(extract_sweep_args(search_words({"--search-initial-points", "8"})).errors.empty())
      << "monotonic_sla has no start to size";
  refused(search_words({"--search-max-iterations", "1"}), "whole number from 2 to 200");
  refused(search_words({"--search-max-iterations", "x"}), "whole number from 2 to 200");
  refused(search_words({"--search-space", "rate:1,4"}), "searches one dimension");
  refused(search_words({"--convergence-metric", "request_latency"}),
          "--convergence-metric cannot be combined with a search");
  refused(search_words({"--bo-constraint-mode", "bogus"}), "'bogus' is not penalty or eic");
  EXPECT_TRUE(extract_sweep_args(search_words({"--bo-constraint-mode", "EIC"})).errors.empty());
  refused(search_words({"--search-sla", "a:b"}), "--search-sla: SLA filter 'a:b'");
  Words w = search_words({});
  for (const auto& [space, why] : std::vector<std::pair<std::string, std::string>>{
           {"phases.profiling.concurrency", "2 or 3 parts"},
           {"phases.nope:1,2", "not one inferperf can search"},
           {"concurrency:1,8:real", "concurrency takes whole numbers: kind int"},
           {"concurrency:1,8:float", "kind 'float' is not int or real"},
           {"concurrency:8", "needs lo,hi"},
           {"concurrency:8,8", "lo < hi"},
           {"concurrency:0,8", "1 <= lo < hi"},
           {"concurrency:1,x", "1 <= lo < hi"},
           {"concurrency:1,99999999", "hi <= 10000000"}}) {
    w[4] = space;
    refused(w, why);
  }
  Words no_sla = search_words({});
  no_sla.resize(13);
  refused(no_sla, "needs at least one --search-sla filter");
}

TEST(MonotonicSlaPlanner, BisectsToTheLargestFeasibleValue) {
  // Feasible up to 37: lo, hi, then midpoints until a pass and a failure are one apart.
  MonotonicSlaPlanner p(1, 64);
  std::vector<long long> tried;
  while (auto v = p.next()) {
    tried.push_back(*v);
    p.record(*v, *v <= 37, {});
    ASSERT_LT(tried.size(), 20u);
  }
  EXPECT_EQ(tried, (std::vector<long long>{1, 64, 32, 48, 40, 36, 38, 37}));
  EXPECT_EQ(p.largest_feasible(), 37);
  EXPECT_EQ(p.smallest_infeasible(), 38);
  EXPECT_EQ(p.reason(), "boundary_bracketed");

  MonotonicSlaPlanner all(2, 9);
  all.record(*all.next(), true, {});
  EXPECT_EQ(all.next(), 9);
  all.record(9, true, {});
  EXPECT_FALSE(all.next());
  EXPECT_EQ(all.reason(), "upper_bound_feasible");

  MonotonicSlaPlanner none(2, 9);
  none.record(*none.next(), false, {});
  EXPECT_FALSE(none.next());
  EXPECT_EQ(none.reason(), "lower_bound_infeasible");
  EXPECT_FALSE(none.largest_feasible());
}

TEST(SearchHistory, RecordsIterationsTheBestTrialAndTheBoundary) {
  auto s = extract_sweep_args(search_words({})).search;
  std::vector<SearchIteration> its;
  for (const auto& [v, ttft, thr] : std::vector<std::tuple<long long, double, double>>{
           {1, 100, 5}, {64, 900, 40}, {32, 450, 30}, {48, 700, 35}}) {
    SearchIteration it;
    it.index = static_cast<int>(its.size()) + 1;
    it.values = {static_cast<double>(v)};
    RunResult r;
    r.ok = true;
    r.label = "run_0001";
    r.summary["time_to_first_token"] = {{"p99", ttft}};
    r.summary["request_throughput"] = {{"avg", thr}};
    it.result.runs.push_back(r);
    it.checks = check_sla(s.filters, it.result);
    it.feasible = all_hold(it.checks);
    it.objective = thr;
    its.push_back(std::move(it));
  }
  const auto h = search_history_json(s, 1, its, "max_iterations");
  EXPECT_EQ(h["config"]["planner"], "monotonic_sla");
  EXPECT_EQ(h["config"]["search_space"][0]["path"], "phases.profiling.concurrency");
  EXPECT_EQ(h["config"]["sla_filters"][0]["threshold"], 500.0);
  ASSERT_EQ(h["iterations"].size(), 4u);
  EXPECT_EQ(h["iterations"][2]["parameters"]["phases.profiling.concurrency"], 32);
  EXPECT_EQ(h["iterations"][2]["sla"][0]["value"], 450.0);
  EXPECT_EQ(h["iterations"][2]["feasible"], true);
  EXPECT_EQ(h["iterations"][3]["feasible"], false);
  EXPECT_EQ(h["best_trials"][0]["parameters"]["phases.profiling.concurrency"], 32);
  EXPECT_EQ(h["best_trials"][0]["objective"], 30.0);
  EXPECT_EQ(h["boundary_summary"]["largest_feasible"], 32);
  EXPECT_EQ(h["boundary_summary"]["smallest_infeasible"], 48);
  EXPECT_EQ(h["boundary_summary"]["resolution"], 16);
  EXPECT_EQ(h["boundary_summary"]["limiting_filters"][0]["value"], 700.0);
  EXPECT_TRUE(h["recipe"].is_null());
  EXPECT_EQ(h["convergence_reason"], "max_iterations");
  const std::string report = search_report(s, its, "max_iterations");
  EXPECT_NE(report.find("Capacity: the largest concurrency meeting every SLA filter is 32 "
                        "(concurrency 48 does not)"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("breaks: time_to_first_token p99 700.00 (needs < 500.00)"),
            std::string::npos);
  EXPECT_NE(report.find("boundary lies between 32 and 48"), std::string::npos);
  EXPECT_EQ(report.find("% CI"), std::string::npos) << "one run per iteration: no interval";
  // Two runs at 32 (450 and 470 ms): mean 460, t(0.975, 1) 12.706 x se 10 = 127.06.
  RunResult second = its[2].result.runs[0];
  second.summary["time_to_first_token"]["p99"] = 470.0;
  its[2].result.runs.push_back(second);
  const std::string with_ci = search_report(s, its, "max_iterations", 0.95);
  EXPECT_NE(with_ci.find("at concurrency 32: time_to_first_token p99 460.00 (95 % CI 332.94 to "
                         "587.06, 2 runs)"),
            std::string::npos)
      << with_ci;
}

PointResult point_at(const std::string& value, double itl_p99) {
  PointResult p;
  p.point.values = {value};
  p.point.label = "concurrency=" + value;
  RunResult r;
  r.ok = true;
  r.summary["inter_token_latency"] = {{"p99", itl_p99}};
  p.runs.push_back(r);
  return p;
}

TEST(SweepSla, TheLargestPassingValueAndTheFailureAboveIt) {
  const std::vector<SweepParam> one = {
      {"concurrency", "--concurrency", {}, "phases.profiling.concurrency", "concurrency"}};
  const std::vector<SlaFilter> f = {*parse_sla_filter("inter_token_latency:p99:lt:30")};
  // Given out of order; 16 fails, 8 passes, 32 fails.
  const std::vector<PointResult> pts = {point_at("16", 40), point_at("8", 20), point_at("32", 60),
                                        point_at("4", 10)};
  const std::string report = sweep_sla_report(one, pts, f);
  EXPECT_NE(report.find("Capacity: the largest concurrency meeting every SLA filter is 8 "
                        "(concurrency 16 does not)"),
            std::string::npos)
      << report;
  EXPECT_NE(sweep_sla_report(one, {point_at("4", 10), point_at("8", 20)}, f)
                .find("is 8 (the largest swept)"),
            std::string::npos);
  EXPECT_NE(sweep_sla_report(one, {point_at("4", 31)}, f)
                .find("Capacity: no point meets every SLA filter"),
            std::string::npos);
  const std::vector<SweepParam> two = {one[0], one[0]};
  EXPECT_NE(sweep_sla_report(two, pts, f)
                .find("Capacity: 2 of 4 points meet every SLA filter: concurrency=8; "
                      "concurrency=4"),
            std::string::npos);

  nlohmann::ordered_json summary;
  summary["metadata"] = nlohmann::ordered_json::object();
  summary["points"] = nlohmann::ordered_json::array({{{"label", "a"}}, {{"label", "b"}}});
  add_sla_to_summary(summary, {pts[0], pts[1]}, f);
  EXPECT_EQ(summary["metadata"]["sla_filters"][0]["threshold"], 30.0);
  EXPECT_EQ(summary["points"][0]["meets_sla"], false);
  EXPECT_EQ(summary["points"][1]["meets_sla"], true);
  EXPECT_EQ(summary["points"][1]["sla"][0]["value"], 20.0);
  EXPECT_EQ(sla_constraints_json(f)[0]["op"], "lt");
}

TEST(SweepSla, SearchSlaFiltersASweepButNotASingleRun) {
  const auto s = extract_sweep_args({"profile", "-m", "x", "--concurrency", "1,2", "--search-sla",
                                     "time_to_first_token:p99:lt:500"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_FALSE(s.search.enabled());
  ASSERT_EQ(s.search.filters.size(), 1u);
  const auto single = extract_sweep_args(
      {"profile", "-m", "x", "--concurrency", "2", "--search-sla", "time_to_first_token:p99:lt:5"});
  ASSERT_EQ(single.errors.size(), 1u);
  EXPECT_NE(single.errors[0].find("--search-sla needs --search-space or a sweep"),
            std::string::npos);
  const auto with_metric =
      extract_sweep_args({"profile", "-m", "x", "--concurrency", "1,2", "--search-sla",
                          "time_to_first_token:p99:lt:5", "--search-metric", "x"});
  EXPECT_FALSE(with_metric.errors.empty());
}

}  // namespace
}  // namespace inferperf::sweep
