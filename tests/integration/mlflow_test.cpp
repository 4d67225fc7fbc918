// The MLflow export end to end: a small fake MLflow tracking server in the test (the REST routes
// inferperf calls, answering as MLflow does): the run made before the benchmark, its live
// scalars, the params, metrics, tags and artifacts after it; and a dead tracking URI (one
// warning, exit 0).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

using MlflowCall = FakeHttpRequest;

// A tracking server as MLflow answers: get-by-name says RESOURCE_DOES_NOT_EXIST until the
// experiment is created. Called on the fake server's thread only.
class FakeMlflow {
 public:
  FakeMlflow() : server_([this](const FakeHttpRequest& r) { return answer(r); }) {}
  int port() const { return server_.port(); }
  std::vector<MlflowCall> calls() const { return server_.requests(); }

 private:
  FakeHttpReply answer(const MlflowCall& call) {
    const std::string api = "/api/2.0/mlflow/";
    if (call.target.starts_with(api + "experiments/get-by-name")) {
      if (experiment_made_) return {200, json{{"experiment", {{"experiment_id", "17"}}}}.dump()};
      return {404, json{{"error_code", "RESOURCE_DOES_NOT_EXIST"},
                        {"message", "Could not find experiment"}}
                       .dump()};
    }
    if (call.target == api + "experiments/create") {
      experiment_made_ = true;
      return {200, json{{"experiment_id", "17"}}.dump()};
    }
    if (call.target == api + "runs/create")
      return {200,
              json{{"run", {{"info", {{"run_id", "run42"}, {"experiment_id", "17"}}}}}}.dump()};
    if (call.target == api + "runs/get?run_id=other9")
      return {200,
              json{{"run", {{"info", {{"run_id", "other9"}, {"experiment_id", "23"}}}}}}.dump()};
    if (call.target == api + "runs/log-batch" || call.target == api + "runs/update" ||
        call.target.starts_with("/api/2.0/mlflow-artifacts/artifacts/17/run42/artifacts/") ||
        call.target.starts_with("/api/2.0/mlflow-artifacts/artifacts/23/other9/artifacts/"))
      return {200, "{}"};
    return {404, json{{"error_code", "ENDPOINT_NOT_FOUND"}, {"message", "no route"}}.dump()};
  }

  bool experiment_made_ = false;  // the server thread's only
  FakeHttpServer server_;         // last: its thread stops before the state above goes
};

TEST(MlflowExport, RunExportedToTheTrackingServer) {
  MockServerProcess mock({"--fast"});
  FakeMlflow fake;
  const std::string dir = make_temp_dir("ip-mlflow-");
  const auto r = run_process(server_counted_profile_args(
                                 mock, dir,
                                 {"--request-count", "20", "--mlflow-tracking-uri",
                                  "127.0.0.1:" + std::to_string(fake.port()), "--mlflow-experiment",
                                  "bench", "--mlflow-run-name", "nightly", "--mlflow-parent-run-id",
                                  "parent1", "--mlflow-tag", "team:perf"}),
                             90s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json summary = load_summary(dir);
  const auto calls = fake.calls();
  const auto count = [&](const std::string& target) {
    return std::count_if(calls.begin(), calls.end(),
                         [&](const MlflowCall& c) { return c.target == target; });
  };
  EXPECT_EQ(count("/api/2.0/mlflow/experiments/create"), 1) << r.out;
  ASSERT_EQ(count("/api/2.0/mlflow/runs/create"), 1) << r.out;
  std::map<std::string, double> metrics;
  std::map<std::string, std::string> params, tags;
  std::vector<std::string> uploaded;
  json update;
  for (const auto& c : calls) {
    const json body = c.method == "PUT" ? json() : json::parse(c.body, nullptr, false);
    if (c.target == "/api/2.0/mlflow/experiments/create") {
      EXPECT_EQ(body.value("name", ""), "bench");
    }
    if (c.target == "/api/2.0/mlflow/runs/create") {
      EXPECT_EQ(body.value("experiment_id", ""), "17");
      EXPECT_EQ(body.value("run_name", ""), "nightly");
      for (const auto& t : body.value("tags", json::array()))
        tags[t["key"].get<std::string>()] = t["value"].get<std::string>();
    }
    if (c.target == "/api/2.0/mlflow/runs/log-batch") {
      EXPECT_EQ(body.value("run_id", ""), "run42");
      for (const auto& m : body.value("metrics", json::array()))
        metrics[m["key"].get<std::string>()] = m["value"].get<double>();
      for (const auto& p : body.value("params", json::array()))
        params[p["key"].get<std::string>()] = p["value"].get<std::string>();
      for (const auto& t : body.value("tags", json::array()))
        tags[t["key"].get<std::string>()] = t["value"].get<std::string>();
    }
    if (c.target == "/api/2.0/mlflow/runs/update") update = body;
    const std::string art = "/api/2.0/mlflow-artifacts/artifacts/17/run42/artifacts/";
    if (c.method == "PUT" && c.target.starts_with(art)) {
      const std::string rel = c.target.substr(art.size());
      uploaded.push_back(rel);
      if (rel == "profile_export_aiperf.json") {
        EXPECT_EQ(c.body, read_file(dir + "/profile_export_aiperf.json"));
      }
    }
  }
  EXPECT_EQ(tags["mlflow.parentRunId"], "parent1");
  EXPECT_EQ(tags["team"], "perf");
  EXPECT_EQ(tags["inferperf.benchmark_id"], summary["benchmark_id"].get<std::string>());
  EXPECT_FALSE(tags["inferperf.version"].empty());
  EXPECT_DOUBLE_EQ(metrics["request_throughput"],
                   summary["request_throughput"]["avg"].get<double>());
  EXPECT_DOUBLE_EQ(metrics["request_latency.p99"], summary["request_latency"]["p99"].get<double>());
  // The live scalars went to the same run; the last one holds every request.
  EXPECT_EQ(metrics["live.aiperf.timing.requests.completed"], 20);
  EXPECT_EQ(params["endpoint.streaming"], "true") << json(params).dump();
  EXPECT_NE(params["endpoint.urls"].find("127.0.0.1"), std::string::npos) << json(params).dump();
  EXPECT_NE(std::find(uploaded.begin(), uploaded.end(), "profile_export_aiperf.json"),
            uploaded.end());
  EXPECT_EQ(update["run_id"], "run42");
  EXPECT_EQ(update["status"], "FINISHED");
  EXPECT_EQ(calls.back().target, "/api/2.0/mlflow/runs/update");
  const json record = json::parse(read_file(dir + "/mlflow_export.json"));
  EXPECT_EQ(record["run_id"], "run42");
  EXPECT_EQ(record["experiment_name"], "bench");
  EXPECT_EQ(record["reused_live_run"], true);
  EXPECT_EQ(record["tracking_uri"], "http://127.0.0.1:" + std::to_string(fake.port()));
}

TEST(MlflowExport, DeadTrackingServerCostsOneWarning) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-mlflow-dead-");
  const int port = unused_loopback_port();
  const auto r =
      run_process(server_counted_profile_args(mock, dir,
                                              {"--request-count", "10", "--mlflow-tracking-uri",
                                               "http://127.0.0.1:" + std::to_string(port)}),
                  90s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::size_t warnings = 0;
  for (auto at = r.out.find("MLflow export to"); at != std::string::npos;
       at = r.out.find("MLflow export to", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.out;
  EXPECT_NE(r.out.find("http://127.0.0.1:" + std::to_string(port)), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/mlflow_export.json"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/profile_export_aiperf.json"));
}

// `plot --mlflow-upload` sends the charts it drew to the run the profile made (from the folder's
// mlflow_export.json), or to --mlflow-run-id's run (its experiment asked of the server).
TEST(MlflowExport, PlotUploadsItsChartsToTheRun) {
  if (run_process({"/bin/sh", "-c", "command -v gnuplot"}, 10s).exit_code != 0)
    GTEST_SKIP() << "gnuplot not installed (scripts/install-deps.sh)";
  MockServerProcess mock({"--fast"});
  FakeMlflow fake;
  const std::string dir = make_temp_dir("ip-mlflow-plot-");
  const std::string uri = "http://127.0.0.1:" + std::to_string(fake.port());
  ASSERT_EQ(run_process({INFERPERF_BIN, "plot", dir, "--mlflow-upload"}, 30s).exit_code, 2)
      << "no mlflow_export.json, no URI: refused before drawing";
  const auto r = run_process(server_counted_profile_args(
                                 mock, dir, {"--request-count", "8", "--mlflow-tracking-uri", uri}),
                             90s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto uploads = [&](const std::string& prefix) {
    std::vector<std::string> rel;
    for (const auto& c : fake.calls()) {
      if (c.method == "PUT" && c.target.starts_with(prefix))
        rel.push_back(c.target.substr(prefix.size()));
    }
    return rel;
  };
  const std::size_t before = uploads("/api/2.0/mlflow-artifacts/artifacts/17/run42/").size();

  auto plotted = run_process({INFERPERF_BIN, "plot", dir, "--mlflow-upload"}, 60s);
  ASSERT_EQ(plotted.exit_code, 0) << plotted.out;
  std::vector<std::string> charts = uploads("/api/2.0/mlflow-artifacts/artifacts/17/run42/");
  charts.erase(charts.begin(), charts.begin() + static_cast<std::ptrdiff_t>(before));
  const json manifest = json::parse(read_file(dir + "/plots/plots.json"));
  ASSERT_FALSE(manifest["charts"].empty());
  ASSERT_EQ(charts.size(), manifest["charts"].size()) << plotted.out;
  EXPECT_EQ(charts.front(), "artifacts/plots/" + manifest["charts"][0]["png"].get<std::string>());
  EXPECT_NE(
      plotted.out.find(std::to_string(charts.size()) + " charts uploaded to MLflow run run42"),
      std::string::npos)
      << plotted.out;
  const auto calls = fake.calls();
  const auto png = std::find_if(calls.rbegin(), calls.rend(),
                                [](const MlflowCall& c) { return c.method == "PUT"; });
  EXPECT_EQ(png->body, read_file(dir + "/plots/" + png->target.substr(png->target.rfind('/') + 1)));

  plotted = run_process({INFERPERF_BIN, "plot", dir, "--output", dir + "/again", "--mlflow-upload",
                         "--mlflow-tracking-uri", uri, "--mlflow-run-id", "other9"},
                        60s);
  ASSERT_EQ(plotted.exit_code, 0) << plotted.out;
  EXPECT_EQ(uploads("/api/2.0/mlflow-artifacts/artifacts/23/other9/artifacts/plots/").size(),
            charts.size());
  plotted = run_process({INFERPERF_BIN, "plot", dir, "--output", dir + "/third", "--mlflow-upload",
                         "--mlflow-tracking-uri", uri, "--mlflow-run-id", "missing1"},
                        60s);
  EXPECT_EQ(plotted.exit_code, 1) << "the server does not know the run";
  EXPECT_NE(plotted.out.find("MLflow run missing1"), std::string::npos) << plotted.out;
}

}  // namespace
}  // namespace inferperf::testing
