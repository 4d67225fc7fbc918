// Convergence decisions on synthetic trial values (AIPerf 0.11 §1.9): ci_width and cv worked by
// hand, the two-sample KS statistic and p-value against the Kolmogorov distribution's known
// quantiles, when a check may run at all, and the collated file's pooled statistics.
#include "sweep/convergence.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sweep/sweep_args.hpp"

namespace inferperf::sweep {
namespace {

TEST(Convergence, CiWidthAndCvWorkedByHand) {
  // {10, 12}: mean 11, s = sqrt(2), se = 1, t(0.975, 1) = 12.7062.
  const auto ci = trial_convergence("ci_width", {10, 12}, 0.10, 0.95);
  ASSERT_TRUE(ci.value);
  EXPECT_NEAR(*ci.value, 2 * 12.7062 * 1.0 / 11, 1e-3);
  EXPECT_FALSE(ci.converged);
  const auto cv = trial_convergence("cv", {10, 12}, 0.2, 0.95);
  EXPECT_NEAR(*cv.value, std::sqrt(2.0) / 11, 1e-9);
  EXPECT_TRUE(cv.converged);
  EXPECT_EQ(cv.detail, "cv 0.1286 < 0.2");
  // Three close runs converge on ci_width: t(0.975, 2) = 4.3027, s = 0.1, se = 0.0577.
  const auto close = trial_convergence("ci_width", {100.0, 100.1, 99.9}, 0.10, 0.95);
  EXPECT_NEAR(*close.value, 2 * 4.3027 * 0.1 / std::sqrt(3.0) / 100, 1e-4);
  EXPECT_TRUE(close.converged);
  // A mean of 0 or a single value never converges.
  EXPECT_FALSE(trial_convergence("cv", {-1, 1}, 0.5, 0.95).converged);
  EXPECT_FALSE(trial_convergence("cv", {-1, 1}, 0.5, 0.95).value);
  EXPECT_FALSE(trial_convergence("cv", {5}, 0.5, 0.95).converged);
}

TEST(Convergence, KsStatisticAndPValue) {
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2, 3, 4}, {3, 4, 5, 6}), 0.5);
  EXPECT_NEAR(ks_statistic({1, 1, 2}, {1, 2, 2}), 1.0 / 3, 1e-12);  // ties step together
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2}, {5, 6}), 1.0);
  // Kolmogorov's survival function at its classic critical points (lambda 1.3581 -> 0.05,
  // 1.6276 -> 0.01, 1.2238 -> 0.10), through sqrt(en) = 100 (two samples of 20,000).
  const double root_en = 100.0;
  const auto p_at = [&](double lambda) {
    return ks_p_value(lambda / (root_en + 0.12 + 0.11 / root_en), 20000, 20000);
  };
  EXPECT_NEAR(p_at(1.3581), 0.05, 5e-4);
  EXPECT_NEAR(p_at(1.6276), 0.01, 2e-4);
  EXPECT_NEAR(p_at(1.2238), 0.10, 1e-3);
  EXPECT_DOUBLE_EQ(ks_p_value(0, 10, 10), 1.0);
  EXPECT_LT(ks_p_value(1.0, 50, 50), 1e-12);
}

TEST(Convergence, DistributionComparesTheLastRunWithTheEarlierOnesPooled) {
  std::vector<double> a, b, shifted;
  for (int i = 0; i < 200; ++i) {
    a.push_back(i % 50);
    b.push_back((i * 7) % 50);  // the same values in another order
    shifted.push_back(i % 50 + 25);
  }
  const auto same = distribution_convergence({a, a, b}, 0.05);
  EXPECT_TRUE(same.converged) << same.detail;
  EXPECT_NEAR(*same.value, 1.0, 1e-9);
  const auto moved = distribution_convergence({a, b, shifted}, 0.05);
  EXPECT_FALSE(moved.converged) << moved.detail;
  EXPECT_LT(*moved.value, 1e-6);
  EXPECT_FALSE(distribution_convergence({a}, 0.05).converged);
  EXPECT_EQ(distribution_convergence({a, {}}, 0.05).detail, "no per-request values");
}

RunResult run_with(const std::string& label, bool ok, std::optional<double> ttft_p99) {
  RunResult r;
  r.label = label;
  r.ok = ok;
  if (ttft_p99) r.summary["time_to_first_token"] = {{"avg", 1.0}, {"p99", *ttft_p99}};
  return r;
}

TEST(Convergence, CheckedOnSuccessfulRunsFromMinRuns) {
  ConvergenceOptions o;
  o.metric = "time_to_first_token";
  o.stat = "p99";
  o.mode = "cv";
  EXPECT_EQ(o.effective_threshold(), 0.05);
  const PerRequestValues none = [](const RunResult&, const std::string&) {
    return std::vector<double>{};
  };
  std::vector<RunResult> runs = {run_with("run_0001", true, 100), run_with("run_0002", false, 500)};
  auto c = check_convergence(o, runs, 0.95, none);
  EXPECT_FALSE(c.converged);
  EXPECT_EQ(c.detail, "1 of at least 2 runs");  // the failed run does not count
  runs.push_back(run_with("run_0003", true, 101));
  c = check_convergence(o, runs, 0.95, none);
  EXPECT_TRUE(c.converged) << c.detail;
  EXPECT_EQ(c.runs, 2);
  runs.push_back(run_with("run_0004", true, std::nullopt));
  c = check_convergence(o, runs, 0.95, none);
  EXPECT_FALSE(c.converged);
  EXPECT_EQ(c.detail, "time_to_first_token p99 missing in run_0004");
  // distribution reads the per-request values through the loader.
  o.mode = "distribution";
  EXPECT_EQ(o.effective_threshold(), 0.05);
  int loads = 0;
  const PerRequestValues counting = [&](const RunResult&, const std::string& tag) {
    EXPECT_EQ(tag, "time_to_first_token");
    ++loads;
    return std::vector<double>{1, 2, 3, 4};
  };
  runs.pop_back();
  EXPECT_TRUE(check_convergence(o, runs, 0.95, counting).converged);
  EXPECT_EQ(loads, 2);
  const auto j = convergence_json(o, c);
  EXPECT_EQ(j["mode"], "distribution");
  EXPECT_EQ(j["converged"], false);
}

TEST(Collated, PoolsEveryRunsRequestsAndKeepsEachRun) {
  const std::vector<RunValues> runs = {
      {"run_0001", {{"time_to_first_token", {1, 2, 3, 4}}, {"request_latency", {10}}}},
      {"run_0002", {{"time_to_first_token", {5, 6, 7, 8}}}}};
  const auto j = collated_json(runs, {{"num_profile_runs", 2}});
  EXPECT_EQ(j["schema_version"], "1.0.0");
  EXPECT_EQ(j["metadata"]["num_profile_runs"], 2);
  const auto& ttft = j["metrics"]["time_to_first_token"];
  EXPECT_EQ(ttft["combined"]["count"], 8);
  EXPECT_DOUBLE_EQ(ttft["combined"]["mean"].get<double>(), 4.5);
  EXPECT_DOUBLE_EQ(ttft["combined"]["p50"].get<double>(), 4.5);  // numpy linear
  EXPECT_NEAR(ttft["combined"]["p99"].get<double>(), 7.93, 1e-9);
  EXPECT_NEAR(ttft["combined"]["std"].get<double>(), std::sqrt(5.25), 1e-9);  // population
  ASSERT_EQ(ttft["per_run"].size(), 2u);
  EXPECT_EQ(ttft["per_run"][1]["run_label"], "run_0002");
  EXPECT_DOUBLE_EQ(ttft["per_run"][1]["mean"].get<double>(), 6.5);
  EXPECT_EQ(j["metrics"]["request_latency"]["combined"]["count"], 1);
  EXPECT_EQ(j["metrics"]["request_latency"]["per_run"].size(), 1u);
}

TEST(ConvergenceArgs, TakenOffTheCommandLineAndCheckedTogether) {
  const auto s =
      extract_sweep_args({"profile", "-m", "x", "--num-profile-runs", "5", "--convergence-metric",
                          "time_to_first_token", "--convergence-stat", "P99", "--convergence-mode",
                          "CV", "--convergence-threshold", "0.2"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_EQ(s.base, (std::vector<std::string>{"profile", "-m", "x"}));
  const auto& c = s.options.convergence;
  EXPECT_EQ(c.metric, "time_to_first_token");
  EXPECT_EQ(c.stat, "p99");
  EXPECT_EQ(c.mode, "cv");
  EXPECT_EQ(c.effective_threshold(), 0.2);
  const auto errors = [](const std::vector<std::string>& w) {
    std::string all;
    for (const auto& e : extract_sweep_args(w).errors) all += e + "\n";
    return all;
  };
  EXPECT_NE(errors({"profile", "--convergence-mode", "cv"})
                .find("--convergence-mode needs --convergence-metric"),
            std::string::npos);
  EXPECT_NE(errors({"profile", "--convergence-metric", "TTFT"}).find("is not a metric tag"),
            std::string::npos);
  EXPECT_NE(errors({"profile", "--convergence-metric", "x", "--convergence-stat", "p98"})
                .find("'p98' is not one of avg, p50, p90, p95, p99, min, max"),
            std::string::npos);
  EXPECT_NE(errors({"profile", "--convergence-metric", "x", "--convergence-threshold", "1"})
                .find("is not a number between 0 and 1"),
            std::string::npos);
}

}  // namespace
}  // namespace inferperf::sweep
