#include "sweep/summary.hpp"

#include <gtest/gtest.h>

#include "sweep/pareto.hpp"

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

}  // namespace
}  // namespace inferperf::sweep
