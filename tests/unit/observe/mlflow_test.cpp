// The MLflow export's pure parts: the request bodies, the batching at MLflow's limits, the
// summary's metric and param names, and the artifact glob.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "observe/mlflow_export.hpp"

namespace inferperf::observe {
namespace {

using nlohmann::json;

TEST(MlflowBodies, RunsCreateAndLogBatchExactJson) {
  EXPECT_EQ(mlflow_run_create_body("7", "r1", 1000, {{"mlflow.parentRunId", "p"}}),
            json::parse(R"({"experiment_id":"7","run_name":"r1","start_time":1000,
                            "tags":[{"key":"mlflow.parentRunId","value":"p"}]})"));
  const json summary = json::parse(R"({
      "benchmark_id": "b", "request_throughput": {"unit": "requests/sec", "avg": 12.5},
      "request_latency": {"unit": "ms", "avg": 10, "p50": 9, "p99": 20, "min": 1, "max": 30,
                          "std": 2, "p1": 1, "count": 4},
      "ttft": {"unit": "ms", "avg": null, "p50": 1},
      "error_request_count": 0, "was_cancelled": false,
      "input_config": {"endpoint": {"type": "chat", "urls": ["http://h"]},
                       "loadgen": {"concurrency": 4}}})");
  const auto bodies =
      mlflow_log_batch_bodies("run", mlflow_metrics_from_summary(summary),
                              mlflow_params_from_summary(summary), {{"inferperf.version", "1"}}, 5);
  ASSERT_EQ(bodies.size(), 1u);
  const auto m = [](const char* k, double v) {
    return json{{"key", k}, {"value", v}, {"timestamp", 5}, {"step", 0}};
  };
  const json want = {
      {"run_id", "run"},
      {"metrics",
       {m("error_request_count", 0), m("request_latency.avg", 10), m("request_latency.p50", 9),
        m("request_latency.p99", 20), m("request_latency.min", 1), m("request_latency.max", 30),
        m("request_latency.std", 2), m("request_throughput", 12.5), m("ttft.p50", 1)}},
      {"params",
       {{{"key", "endpoint.type"}, {"value", "chat"}},
        {{"key", "endpoint.urls"}, {"value", R"(["http://h"])"}},
        {{"key", "loadgen.concurrency"}, {"value", "4"}}}},
      {"tags", {{{"key", "inferperf.version"}, {"value", "1"}}}}};
  EXPECT_EQ(bodies[0], want) << bodies[0].dump();
}

TEST(MlflowBodies, BatchesRespectTheLimits) {
  std::vector<MlflowMetric> metrics(2500, {"m", 1});
  MlflowPairs params(150, {"p", std::string(7000, 'x')});
  MlflowPairs tags(101, {"t", "v"});
  const auto bodies = mlflow_log_batch_bodies("r", metrics, params, tags, 0);
  std::size_t nm = 0, np = 0, nt = 0;
  for (const auto& b : bodies) {
    const std::size_t bm = b.value("metrics", json::array()).size();
    const std::size_t bp = b.value("params", json::array()).size();
    const std::size_t bt = b.value("tags", json::array()).size();
    EXPECT_LE(bm, kMlflowBatchMetrics);
    EXPECT_LE(bp, kMlflowBatchParams);
    EXPECT_LE(bt, kMlflowBatchTags);
    EXPECT_LE(bm + bp + bt, 1000u);
    for (const auto& p : b.value("params", json::array()))
      EXPECT_EQ(p["value"].get<std::string>().size(), kMlflowParamValueMax);
    nm += bm, np += bp, nt += bt;
  }
  EXPECT_EQ(nm, 2500u);
  EXPECT_EQ(np, 150u);
  EXPECT_EQ(nt, 101u);
  EXPECT_EQ(bodies.size(), 3u);
  EXPECT_TRUE(mlflow_log_batch_bodies("r", {}, {}, {}, 0).empty());
}

TEST(MlflowArtifacts, GlobAndSelection) {
  EXPECT_TRUE(mlflow_glob_match("profile_export*", "profile_export_aiperf.json"));
  EXPECT_TRUE(mlflow_glob_match("logs/*", "logs/aiperf.log"));
  EXPECT_TRUE(mlflow_glob_match("?.json", "a.json"));
  EXPECT_FALSE(mlflow_glob_match("*", "logs/aiperf.log"));
  EXPECT_FALSE(mlflow_glob_match("?.json", "ab.json"));
  EXPECT_FALSE(mlflow_glob_match("profile_export*", "x_profile_export.json"));
  const auto dir = std::filesystem::temp_directory_path() / "inferperf_mlflow_glob_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "logs");
  const auto put = [&](const char* name, std::size_t n) {
    std::ofstream(dir / name) << std::string(n, 'x');
  };
  put("profile_export_aiperf.json", 10);
  put("profile_export_aiperf.csv", 10);
  put("logs/aiperf.log", 5);
  put("inferperf_records.jsonl", 5);
  put("mlflow_export.json", 5);
  std::filesystem::create_symlink(dir / "inferperf_records.jsonl", dir / "profile_export_link");
  int skipped = 0;
  auto got = mlflow_select_artifacts(dir, {}, 1 << 20, skipped);
  std::vector<std::string> names;
  for (const auto& a : got) names.push_back(a.relative_path);
  EXPECT_EQ(names, (std::vector<std::string>{"logs/aiperf.log", "profile_export_aiperf.csv",
                                             "profile_export_aiperf.json"}));
  got = mlflow_select_artifacts(dir, {"*.json*"}, 12, skipped);
  ASSERT_EQ(got.size(), 1u);  // records 5 + summary 10 > 12: the second is skipped
  EXPECT_EQ(skipped, 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace inferperf::observe
