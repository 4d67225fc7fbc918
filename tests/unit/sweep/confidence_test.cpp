#include "sweep/confidence.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace inferperf::sweep {
namespace {

TEST(StudentT, QuantilesMatchTheTables) {
  // Two-sided 95 % and 99 % critical values from any t table.
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 2), 4.3027, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.7764, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 9), 2.2622, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.995, 5), 4.0321, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 3), 2.3534, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 1e6), 1.95996, 1e-4);  // the normal limit
  EXPECT_NEAR(student_t_quantile(0.025, 4), -2.7764, 1e-4);
  EXPECT_DOUBLE_EQ(student_t_quantile(0.5, 3), 0.0);
}

TEST(RunStats, ThreeRuns) {
  const RunStats s = run_stats({10, 12, 14}, 0.95);
  EXPECT_DOUBLE_EQ(s.mean, 12);
  EXPECT_DOUBLE_EQ(s.min, 10);
  EXPECT_DOUBLE_EQ(s.max, 14);
  ASSERT_TRUE(s.std && s.se && s.t_critical && s.ci_low && s.ci_high && s.cv);
  EXPECT_DOUBLE_EQ(*s.std, 2.0);  // sample std, n - 1
  EXPECT_NEAR(*s.se, 2.0 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(*s.t_critical, 4.3027, 1e-4);
  EXPECT_NEAR(*s.ci_low, 12 - 4.30265 * 1.1547, 1e-3);
  EXPECT_NEAR(*s.ci_high, 12 + 4.30265 * 1.1547, 1e-3);
  EXPECT_NEAR(*s.cv, 2.0 / 12.0, 1e-12);
}

TEST(RunStats, OneRunHasNoSpreadAndAZeroMeanNoCv) {
  const RunStats one = run_stats({5}, 0.95);
  EXPECT_DOUBLE_EQ(one.mean, 5);
  EXPECT_FALSE(one.std || one.se || one.ci_low || one.t_critical || one.cv);
  const RunStats zero = run_stats({0, 0}, 0.95);
  ASSERT_TRUE(zero.std);
  EXPECT_DOUBLE_EQ(*zero.std, 0);
  EXPECT_FALSE(zero.cv);
}

nlohmann::ordered_json summary_with(double ttft, std::optional<double> extra) {
  nlohmann::ordered_json j;
  j["time_to_first_token"] = {{"unit", "ms"}, {"avg", ttft}, {"p50", ttft - 1}};
  j["request_count"] = {{"unit", "requests"}, {"avg", 10}};
  if (extra) j["only_sometimes"] = {{"unit", "ms"}, {"avg", *extra}};
  j["input_config"] = {{"avg", 1}};  // no unit: not a metric
  j["client_health"] = {{"saturated", false}};
  return j;
}

TEST(Aggregate, JsonOverSuccessfulRunsOnly) {
  std::vector<RunResult> runs = {{"run_0001", true, "", summary_with(20, 1.0)},
                                 {"run_0002", false, "exited with code 1", {}},
                                 {"run_0003", true, "", summary_with(30, std::nullopt)}};
  const auto agg = aggregate_json(runs, {3, 0.95, 2.5});
  const auto& meta = agg["metadata"];
  EXPECT_EQ(meta["aggregation_type"], "confidence");
  EXPECT_EQ(meta["num_profile_runs"], 3);
  EXPECT_EQ(meta["num_successful_runs"], 2);
  ASSERT_EQ(meta["failed_runs"].size(), 1u);
  EXPECT_EQ(meta["failed_runs"][0]["label"], "run_0002");
  EXPECT_EQ(meta["failed_runs"][0]["error"], "exited with code 1");
  EXPECT_EQ(meta["confidence_level"], 0.95);
  EXPECT_EQ(meta["cooldown_seconds"], 2.5);
  EXPECT_EQ(meta["run_labels"].size(), 3u);
  const auto& m = agg["metrics"];
  EXPECT_EQ(m.size(), 2u);  // only_sometimes is missing in run 3; non-metrics skipped
  const auto& t = m["time_to_first_token"];
  EXPECT_DOUBLE_EQ(t["mean"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(t["min"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(t["max"].get<double>(), 30);
  EXPECT_NEAR(t["std"].get<double>(), std::sqrt(50.0), 1e-12);
  EXPECT_NEAR(t["t_critical"].get<double>(), 12.7062, 1e-4);
  EXPECT_EQ(t["unit"], "ms");
  const std::vector<std::string> keys = {"mean", "std",    "min",     "max",        "cv",
                                         "se",   "ci_low", "ci_high", "t_critical", "unit"};
  std::size_t k = 0;
  for (const auto& [key, v] : t.items()) EXPECT_EQ(key, keys[k++]);
  const auto csv = aggregate_csv(agg);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Metric,Unit,Mean,Std,Min,Max,CV,SE,CI Low,CI High,t Critical");
  EXPECT_NE(csv.find("\ntime_to_first_token,ms,25,7.07107,20,30,0.282843,5,"), std::string::npos)
      << csv;
}

}  // namespace
}  // namespace inferperf::sweep
