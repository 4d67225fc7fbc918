#include "sweep/confidence.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/version.hpp"

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
  // By hand: mean 12, sample std sqrt(((-2)^2 + 0 + 2^2) / 2) = 2, se = 2 / sqrt(3) = 1.1547,
  // t(0.975, 2 dof) = 4.3027, ci = 12 -+ 4.3027 * 1.1547 = 7.0317 .. 16.9683, cv = 2 / 12.
  const RunStats s = run_stats({10, 12, 14}, 0.95);
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.mean, 12);
  EXPECT_DOUBLE_EQ(s.min, 10);
  EXPECT_DOUBLE_EQ(s.max, 14);
  EXPECT_DOUBLE_EQ(s.std, 2.0);
  EXPECT_NEAR(s.se, 1.1547, 1e-4);
  ASSERT_TRUE(s.t_critical);
  EXPECT_NEAR(*s.t_critical, 4.3027, 1e-4);
  EXPECT_NEAR(s.ci_low, 7.0317, 1e-3);
  EXPECT_NEAR(s.ci_high, 16.9683, 1e-3);
  EXPECT_NEAR(s.cv, 2.0 / 12.0, 1e-12);
}

TEST(RunStats, OneValueCollapsesAndAZeroMeanHasAnInfiniteCv) {
  const RunStats one = run_stats({5}, 0.95);
  EXPECT_DOUBLE_EQ(one.mean, 5);
  EXPECT_DOUBLE_EQ(one.std, 0);
  EXPECT_DOUBLE_EQ(one.cv, 0);
  EXPECT_DOUBLE_EQ(one.se, 0);
  EXPECT_DOUBLE_EQ(one.ci_low, 5);
  EXPECT_DOUBLE_EQ(one.ci_high, 5);
  EXPECT_FALSE(one.t_critical);
  const RunStats zero = run_stats({0, 0}, 0.95);
  EXPECT_DOUBLE_EQ(zero.std, 0);
  EXPECT_TRUE(std::isinf(zero.cv) && zero.cv > 0);
  // Non-finite values are skipped: {4, 6} remain.
  const RunStats skipped = run_stats({4, std::nan(""), INFINITY, 6}, 0.9);
  EXPECT_EQ(skipped.n, 2);
  EXPECT_DOUBLE_EQ(skipped.mean, 5);
  EXPECT_NEAR(*skipped.t_critical, 6.3138, 1e-4);  // t(0.95, 1 dof)
}

nlohmann::ordered_json summary_with(double ttft, std::optional<double> extra) {
  nlohmann::ordered_json j;
  j["time_to_first_token"] = {
      {"unit", "ms"}, {"avg", ttft}, {"p50", ttft - 1}, {"count", 10}, {"sum", ttft * 10}};
  j["request_count"] = {{"unit", "requests"}, {"avg", 10}};
  if (extra) j["only_sometimes"] = {{"unit", "ms"}, {"avg", *extra}};
  j["input_config"] = {{"avg", 1}};  // no unit: not a metric
  j["client_health"] = {{"saturated", false}};
  return j;
}

TEST(Aggregate, EveryTagAndStatOverTheSuccessfulRuns) {
  std::vector<RunResult> runs = {{"run_0001", true, "", summary_with(20, 1.0)},
                                 {"run_0002", false, "exited with code 1", {}},
                                 {"run_0003", true, "", summary_with(30, std::nullopt)}};
  const auto agg = aggregate_json(aggregate_runs(runs, {3, 0.95, 2.5}));
  EXPECT_EQ(agg["schema_version"], "1.0");
  EXPECT_EQ(agg["aiperf_version"], kAiperfFormatVersion);
  const auto& meta = agg["metadata"];
  std::vector<std::string> meta_keys;
  for (const auto& [k, v] : meta.items()) meta_keys.push_back(k);
  EXPECT_EQ(meta_keys, (std::vector<std::string>{
                           "aggregation_type", "num_profile_runs", "num_successful_runs",
                           "failed_runs", "confidence_level", "run_labels", "cooldown_seconds"}));
  EXPECT_EQ(meta["aggregation_type"], "confidence");
  EXPECT_EQ(meta["num_profile_runs"], 3);
  EXPECT_EQ(meta["num_successful_runs"], 2);
  ASSERT_EQ(meta["failed_runs"].size(), 1u);
  EXPECT_EQ(meta["failed_runs"][0]["label"], "run_0002");
  EXPECT_EQ(meta["failed_runs"][0]["error"], "exited with code 1");
  EXPECT_EQ(meta["cooldown_seconds"], 2.5);
  const auto& m = agg["metrics"];
  std::vector<std::string> keys;
  for (const auto& [k, v] : m.items()) keys.push_back(k);
  // count is no aggregated stat; only_sometimes comes from run 1 alone.
  EXPECT_EQ(keys, (std::vector<std::string>{"time_to_first_token_avg", "time_to_first_token_p50",
                                            "time_to_first_token_sum", "request_count_avg",
                                            "only_sometimes_avg"}));
  const auto& t = m["time_to_first_token_avg"];
  EXPECT_DOUBLE_EQ(t["mean"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(t["min"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(t["max"].get<double>(), 30);
  EXPECT_NEAR(t["std"].get<double>(), std::sqrt(50.0), 1e-12);
  EXPECT_NEAR(t["se"].get<double>(), 5.0, 1e-12);
  EXPECT_NEAR(t["t_critical"].get<double>(), 12.7062, 1e-4);
  EXPECT_NEAR(t["ci_low"].get<double>(), 25 - 12.7062 * 5, 1e-3);
  EXPECT_EQ(t["unit"], "ms");
  const std::vector<std::string> stat_keys = {"mean", "std",    "min",     "max",        "cv",
                                              "se",   "ci_low", "ci_high", "t_critical", "unit"};
  std::size_t k = 0;
  for (const auto& [key, v] : t.items()) EXPECT_EQ(key, stat_keys[k++]);
  EXPECT_DOUBLE_EQ(m["time_to_first_token_sum"]["mean"].get<double>(), 250);
  // One value: no spread, the interval collapsed, no t.
  const auto& once = m["only_sometimes_avg"];
  EXPECT_EQ(once["std"], 0.0);
  EXPECT_EQ(once["ci_low"], 1.0);
  EXPECT_TRUE(once["t_critical"].is_null());
}

TEST(Aggregate, CsvHeaderRowsAndMetadata) {
  std::vector<RunResult> runs = {{"run_0001", true, "", summary_with(20, 0.0)},
                                 {"run_0002", true, "", summary_with(30, 0.0)}};
  const std::string csv = aggregate_csv(aggregate_runs(runs, {2, 0.9, 0}));
  const std::string expected_head =
      "metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit\n"
      "time_to_first_token_avg,25.00,7.07,20.00,30.00,0.2828,5.0000,-6.57,56.57,6.3138,ms\n";
  EXPECT_EQ(csv.substr(0, expected_head.size()), expected_head) << csv;
  // A zero mean: cv inf, written literally in the CSV and as null in the JSON.
  EXPECT_NE(csv.find("\nonly_sometimes_avg,0.00,0.00,0.00,0.00,inf,0.0000,0.00,0.00,6.3138,ms\n"),
            std::string::npos)
      << csv;
  const std::string expected_tail =
      "\n\nAggregation Type,confidence\nTotal Runs,2\nSuccessful Runs,2\nFailed Runs,[]\n"
      "Confidence Level,0.9\nRun Labels,\"['run_0001', 'run_0002']\"\nCooldown Seconds,0.0\n";
  ASSERT_GE(csv.size(), expected_tail.size());
  EXPECT_EQ(csv.substr(csv.size() - expected_tail.size()), expected_tail) << csv;
  const auto json = aggregate_json(aggregate_runs(runs, {2, 0.9, 0}));
  EXPECT_TRUE(json["metrics"]["only_sometimes_avg"]["cv"].is_null());
}

TEST(Aggregate, OneSuccessfulRunIsMarkedSingleRun) {
  std::vector<RunResult> runs = {{"run_0001", true, "", summary_with(20, std::nullopt)},
                                 {"run_0002", false, "boom", {}}};
  AggregateMeta meta{2, 0.95, 0, {{"variation_label", "phases.profiling.concurrency=4"}}};
  const auto agg = aggregate_json(aggregate_runs(runs, meta));
  EXPECT_EQ(agg["metadata"]["single_run"], true);
  EXPECT_EQ(agg["metadata"]["variation_label"], "phases.profiling.concurrency=4");
  const auto& t = agg["metrics"]["time_to_first_token_avg"];
  EXPECT_EQ(t["mean"], 20.0);
  EXPECT_EQ(t["cv"], 0.0);
  EXPECT_EQ(t["ci_high"], 20.0);
  EXPECT_TRUE(t["t_critical"].is_null());
  const std::string csv = aggregate_csv(aggregate_runs(runs, meta));
  EXPECT_NE(
      csv.find("\ntime_to_first_token_avg,20.00,0.00,20.00,20.00,0.0000,0.0000,20.00,20.00,,ms"),
      std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\nSingle Run,True\nVariation Label,phases.profiling.concurrency=4\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\nFailed Runs,\"[{'label': 'run_0002', 'error': 'boom'}]\"\n"),
            std::string::npos)
      << csv;
}

}  // namespace
}  // namespace inferperf::sweep
