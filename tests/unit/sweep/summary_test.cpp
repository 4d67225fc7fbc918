#include "sweep/summary.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sweep/pareto.hpp"
#include "sweep/sweep_aggregate.hpp"

namespace inferperf::sweep {
namespace {

TEST(Pareto, DominatedPointsLeaveTiesStay) {
  const std::vector<ParetoPoint> p = {
      {100, 10},          // best latency
      {200, 20},          // best throughput
      {150, 25},          // beaten by {200, 20}
      {200, 20},          // equal to the second: both kept
      {std::nullopt, 5},  // no throughput: never on it, beats nothing
      {120, 10},          // beats the first (more throughput, same latency)
  };
  EXPECT_EQ(pareto_frontier(p), (std::vector<bool>{false, true, false, true, false, true}));
  EXPECT_TRUE(pareto_frontier({}).empty());
  EXPECT_EQ(pareto_frontier({{1, 1}}), std::vector<bool>{true});
}

nlohmann::ordered_json run_summary(double thr, double ttft, double itl) {
  nlohmann::ordered_json j;
  j["request_throughput"] = {{"unit", "requests/sec"}, {"avg", thr / 10}};
  j["output_token_throughput"] = {{"unit", "tokens/sec"}, {"avg", thr}};
  j["time_to_first_token"] = {{"unit", "ms"}, {"avg", ttft}, {"p50", ttft}, {"p99", ttft * 2}};
  j["inter_token_latency"] = {{"unit", "ms"}, {"avg", itl}, {"p99", itl * 3}};
  j["request_count"] = {{"unit", "requests"}, {"avg", 100}};
  return j;
}

std::string fmt_trial(int t) {
  return "trial_000" + std::to_string(t);
}

TEST(SweepSummary, PointsAveragedOverRunsWithTheFrontier) {
  const std::vector<SweepParam> params = {{"concurrency", "--concurrency", {"1", "4", "16"}}};
  std::vector<PointResult> points(3);
  const char* values[] = {"1", "4", "16"};
  for (int i = 0; i < 3; ++i) {
    points[i].point = {{values[i]},
                       std::string("concurrency_") + values[i],
                       std::string("concurrency=") + values[i]};
  }
  points[0].runs = {{"run_0001", true, "", run_summary(100, 10, 2)},
                    {"run_0002", true, "", run_summary(120, 14, 2)}};
  points[1].runs = {{"run_0001", true, "", run_summary(300, 20, 3)},
                    {"run_0002", false, "exited with code 1", {}}};
  // More throughput than point 2 but worse ITL: on the ITL frontier; TTFT 50 vs 20 too.
  points[2].runs = {{"run_0001", true, "", run_summary(400, 50, 5)}};
  SweepOptions o;
  o.num_profile_runs = 2;
  const auto s = sweep_summary_json(params, points, o);
  EXPECT_EQ(s["metadata"]["sweep_type"], "grid");
  EXPECT_EQ(s["metadata"]["parameters"][0]["values"], nlohmann::ordered_json({1, 4, 16}));
  EXPECT_EQ(s["metadata"]["num_points"], 3);
  const auto& p0 = s["points"][0];
  EXPECT_EQ(p0["parameters"]["concurrency"], 1);
  EXPECT_EQ(p0["status"], "ok");
  EXPECT_DOUBLE_EQ(p0["metrics"]["output_token_throughput"]["avg"].get<double>(), 110);
  EXPECT_DOUBLE_EQ(p0["metrics"]["time_to_first_token"]["avg"].get<double>(), 12);
  EXPECT_DOUBLE_EQ(p0["metrics"]["time_to_first_token"]["p99"].get<double>(), 24);
  EXPECT_TRUE(p0["metrics"]["time_to_first_token"]["p90"].is_null());
  EXPECT_EQ(p0["metrics"]["time_to_first_token"]["unit"], "ms");
  EXPECT_FALSE(p0["metrics"].contains("request_latency"));
  // Left out of an export when there were none: zero, not unknown.
  EXPECT_EQ(p0["metrics"]["error_request_count"]["avg"], 0.0);
  EXPECT_EQ(p0["metrics"]["error_request_count"]["unit"], "requests");
  EXPECT_EQ(s["points"][1]["status"], "partial");
  EXPECT_EQ(s["points"][1]["num_successful_runs"], 1);
  EXPECT_EQ(s["points"][1]["failed_runs"][0]["error"], "exited with code 1");
  EXPECT_EQ(s["pareto_frontier"]["throughput_vs_itl"],
            nlohmann::ordered_json({"concurrency=1", "concurrency=4", "concurrency=16"}));
  EXPECT_EQ(s["pareto_frontier"]["throughput_vs_ttft"],
            nlohmann::ordered_json({"concurrency=1", "concurrency=4", "concurrency=16"}));

  // Point 3 now worse than point 2 in both: off both frontiers.
  points[2].runs = {{"run_0001", true, "", run_summary(250, 50, 5)}};
  const auto t = sweep_summary_json(params, points, o);
  EXPECT_FALSE(t["points"][2]["pareto_throughput_vs_itl"].get<bool>());
  EXPECT_FALSE(t["points"][2]["pareto_throughput_vs_ttft"].get<bool>());
  EXPECT_TRUE(t["points"][1]["pareto_throughput_vs_itl"].get<bool>());

  const std::string csv = sweep_summary_csv(t);
  const auto header = csv.substr(0, csv.find('\n'));
  EXPECT_TRUE(
      header.starts_with("label,folder,concurrency,status,num_runs,num_successful_runs,"
                         "request_throughput_avg,output_token_throughput_avg,"))
      << header;
  EXPECT_NE(header.find(",time_to_first_token_p99,"), std::string::npos);
  EXPECT_TRUE(header.ends_with(",pareto_throughput_vs_itl,pareto_throughput_vs_ttft"));
  EXPECT_NE(csv.find("\nconcurrency=16,concurrency_16,16,ok,1,1,25,250,"), std::string::npos)
      << csv;
  EXPECT_TRUE(csv.ends_with(",0,false,false\n")) << csv;

  const std::string table = sweep_summary_table(t);
  EXPECT_NE(table.find("Sweep Summary"), std::string::npos);
  EXPECT_NE(table.find("concurrency=16"), std::string::npos);
  EXPECT_NE(table.find("ITL+TTFT"), std::string::npos);
  EXPECT_NE(table.find("partial"), std::string::npos);
}

// A concurrency sweep over two points with `trials` runs each, throughput and TTFT p99 given.
std::vector<VariationResult> two_variations(const std::vector<SweepParam>& params, int trials,
                                            double thr_a, double thr_b) {
  std::vector<VariationResult> out;
  const double thr[] = {thr_a, thr_b};
  const double ttft[] = {10, 30};
  for (int i = 0; i < 2; ++i) {
    VariationResult v;
    v.point = {{params[0].values[i]},
               "concurrency_" + params[0].values[i],
               "concurrency=" + params[0].values[i],
               "phases.profiling.concurrency=" + params[0].values[i]};
    for (int t = 1; t <= trials; ++t) {
      // Trial t adds t to the throughput: the cross-trial mean is thr + (trials + 1) / 2.
      v.runs.push_back({fmt_trial(t), true, "", run_summary((thr[i] + t) * 10, ttft[i], 2)});
    }
    v.aggregate = aggregate_runs(v.runs, {trials, 0.95, 0});
    out.push_back(std::move(v));
  }
  return out;
}

TEST(SweepAggregate, SeveralTrialsPickTheBestAndTheParetoPoints) {
  const std::vector<SweepParam> params = {
      {"concurrency", "--concurrency", {"1", "4"}, "phases.profiling.concurrency", "concurrency"}};
  SweepOptions o;
  o.num_profile_runs = 2;
  // Point 2 has more throughput (40.5 vs 10.5 req/s) but a worse TTFT p99 (60 vs 20 ms): both
  // are Pareto-optimal; best throughput is point 2, best latency point 1.
  const auto s = sweep_aggregate_json(params, two_variations(params, 2, 9, 39), o);
  EXPECT_EQ(s["aggregation_type"], "sweep");
  EXPECT_EQ(s["num_profile_runs"], 4);
  EXPECT_EQ(s["num_successful_runs"], 4);
  EXPECT_EQ(s["metadata"]["sweep_parameters"][0]["name"], "phases.profiling.concurrency");
  EXPECT_EQ(s["metadata"]["sweep_parameters"][0]["values"], nlohmann::ordered_json({1, 4}));
  EXPECT_EQ(s["metadata"]["num_combinations"], 2);
  EXPECT_EQ(s["metadata"]["sweep_mode"], "repeated");
  EXPECT_EQ(s["metadata"]["num_trials_per_value"], 2);
  const auto& c0 = s["per_combination_metrics"][0];
  EXPECT_EQ(c0["parameters"], nlohmann::ordered_json({{"phases.profiling.concurrency", 1}}));
  const auto& thr = c0["metrics"]["request_throughput_avg"];
  EXPECT_DOUBLE_EQ(thr["mean"].get<double>(), 10.5);
  EXPECT_NEAR(thr["std"].get<double>(), std::sqrt(0.5), 1e-12);
  std::vector<std::string> keys;
  for (const auto& [k, v] : thr.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"mean", "std", "min", "max", "cv", "ci_low", "ci_high",
                                            "unit"}));
  const auto& best = s["best_configurations"];
  EXPECT_EQ(best["best_throughput"]["parameters"]["phases.profiling.concurrency"], 4);
  EXPECT_DOUBLE_EQ(best["best_throughput"]["metric"].get<double>(), 40.5);
  EXPECT_EQ(best["best_throughput"]["unit"], "requests/sec");
  EXPECT_EQ(best["best_latency_p99"]["parameters"]["phases.profiling.concurrency"], 1);
  EXPECT_DOUBLE_EQ(best["best_latency_p99"]["metric"].get<double>(), 20);
  EXPECT_EQ(s["pareto_optimal"].size(), 2u);

  // Point 2 now slower as well: it leaves the Pareto list.
  const auto t = sweep_aggregate_json(params, two_variations(params, 2, 9, 5), o);
  ASSERT_EQ(t["pareto_optimal"].size(), 1u);
  EXPECT_EQ(t["pareto_optimal"][0], nlohmann::ordered_json({{"phases.profiling.concurrency", 1}}));
  const std::string csv = sweep_aggregate_csv(t);
  EXPECT_TRUE(
      csv.starts_with("phases.profiling.concurrency,request_throughput_avg_mean,"
                      "request_throughput_avg_std,request_throughput_avg_min,"
                      "request_throughput_avg_max,request_throughput_avg_cv,"))
      << csv;
  EXPECT_NE(csv.find("\n1,10.50,0.71,10.00,11.00,0.0673,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n\nBest Configurations\nConfiguration,Parameters,Metric,Unit\n"
                     "best_throughput,phases.profiling.concurrency=1,10.50,requests/sec\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\n\nPareto Optimal Points\nphases.profiling.concurrency\n1\n\nMetadata\n"
                     "Field,Value\naggregation_type,sweep\nnum_profile_runs,4\n"),
            std::string::npos)
      << csv;
}

// AIPerf 0.11 with one trial per point: plain-tag metrics, so no best configuration and no
// Pareto point is found.
TEST(SweepAggregate, OneTrialKeysThePlainTagAndFindsNoBest) {
  const std::vector<SweepParam> params = {
      {"concurrency", "--concurrency", {"1", "4"}, "phases.profiling.concurrency", "concurrency"}};
  SweepOptions o;
  const auto s = sweep_aggregate_json(params, two_variations(params, 1, 9, 39), o);
  const auto& m = s["per_combination_metrics"][1]["metrics"];
  EXPECT_FALSE(m.contains("request_throughput_avg"));
  const auto& ttft = m["time_to_first_token"];
  EXPECT_EQ(ttft["mean"], 30.0);
  EXPECT_EQ(ttft["avg"], 30.0);
  EXPECT_EQ(ttft["p99"], 60.0);
  EXPECT_EQ(ttft["std"], 0.0);
  EXPECT_EQ(ttft["cv"], 0.0);
  EXPECT_EQ(ttft["unit"], "ms");
  EXPECT_TRUE(s["best_configurations"].is_object() && s["best_configurations"].empty());
  EXPECT_TRUE(s["pareto_optimal"].is_array() && s["pareto_optimal"].empty());
  const std::string csv = sweep_aggregate_csv(s);
  EXPECT_NE(csv.find("\n\nBest Configurations\n\nPareto Optimal Points\nNone\n\nMetadata\n"),
            std::string::npos)
      << csv;
}

}  // namespace
}  // namespace inferperf::sweep
