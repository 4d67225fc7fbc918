// Reading the committed fixtures (real runs against the mock server, tests/data/plot).
#include "plot/run_data.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "plot/discovery.hpp"
#include "plot/plot_error.hpp"
#include "plot/points.hpp"

namespace inferperf::plot {
namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(INFERPERF_SOURCE_DIR) / "tests/data/plot";

TEST(PlotRunData, SweepPointReadsEveryFile) {
  const RunData run = load_run(kData / "sweep/concurrency_1");
  EXPECT_EQ(run.params.concurrency, 1);
  EXPECT_EQ(run.params.isl, 32);
  EXPECT_EQ(run.params.osl, 16);
  EXPECT_EQ(run.params.model, "mock-model");
  EXPECT_NEAR(*run.stat("output_token_throughput"), 193.494, 1e-3);
  EXPECT_NEAR(*run.stat("time_to_first_token"), 20.321, 1e-3);
  EXPECT_FALSE(run.stat("time_to_first_token", "p42"));
  EXPECT_EQ(run.gpu_count, 2);  // the mock's fake DCGM node has two GPUs

  ASSERT_TRUE(run.requests);
  ASSERT_EQ(run.requests->size(), 16u);
  EXPECT_EQ(run.zero_ns, 1796162485505966106);
  const RequestRow& first = run.requests->front();
  EXPECT_DOUBLE_EQ(first.start_s, 0);
  EXPECT_GT(first.end_s, first.first_token_s);
  EXPECT_FALSE(first.error);
  for (const auto& r : *run.requests) {
    EXPECT_GT(r.ttft_ms, 20);
    EXPECT_LT(r.ttft_ms, 30);
    EXPECT_EQ(r.isl, 32);
    EXPECT_NEAR(r.first_token_s, r.start_s + r.ttft_ms / 1e3, 1e-9);
  }

  ASSERT_TRUE(run.dispatch);
  ASSERT_EQ(run.dispatch->size(), 16u);
  EXPECT_DOUBLE_EQ(run.dispatch->front().intended_s, 0);
  for (const auto& d : *run.dispatch) {
    EXPECT_GE(d.lag_ms(), 0);
    EXPECT_LT(d.lag_ms(), 50);
  }

  ASSERT_TRUE(run.timeslices);
  ASSERT_EQ(run.timeslices->size(), 3u);
  EXPECT_NEAR(run.timeslices->front().avg.at("time_to_first_token"), 20.3346, 1e-4);

  ASSERT_EQ(run.gpu.count("gpu_utilization"), 1u);
  const auto& util = run.gpu.at("gpu_utilization");
  ASSERT_EQ(util.size(), 2u);
  EXPECT_EQ(util[0].name, "GPU 0 (NVIDIA H200)");
  EXPECT_EQ(util[0].t_s.size() + util[1].t_s.size(), 22u);
  EXPECT_FALSE(run.server.empty());
  for (const auto& s : run.server) EXPECT_FALSE(s.name.ends_with("_total")) << s.name;
}

TEST(PlotRunData, TimesliceCsvWhenThereIsNoJson) {
  const RunData run = load_run(kData / "sweep/concurrency_4");
  ASSERT_TRUE(run.timeslices);
  ASSERT_FALSE(run.timeslices->empty());
  EXPECT_EQ(run.timeslices->front().index, 0);
  EXPECT_DOUBLE_EQ(run.timeslices->front().avg.at("time_to_first_token"), 20.65);
  EXPECT_DOUBLE_EQ((*run.timeslices)[1].avg.at("time_to_first_token"), 20.30);
}

TEST(PlotRunData, WorkflowRunsHaveOnlyTheirRecords) {
  const RunData run = load_run(kData / "workflow/c2");
  EXPECT_EQ(run.params.concurrency, 2);
  EXPECT_TRUE(run.requests);
  EXPECT_FALSE(run.dispatch);
  EXPECT_FALSE(run.timeslices);
  EXPECT_TRUE(run.gpu.empty());
  EXPECT_EQ(run.gpu_count, 0);
  EXPECT_EQ(run.notes.size(), 4u);  // records, timeslices, GPU and server metrics missing
}

TEST(PlotRunData, RepeatedRunsAverageIntoOnePoint) {
  const auto points = load_points(discover_runs({kData / "sweep"}));
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].label, "c=1");
  EXPECT_EQ(points[1].label, "c=2");
  EXPECT_EQ(points[2].label, "c=4");
  ASSERT_EQ(points[1].runs.size(), 2u);
  EXPECT_NEAR(*points[1].mean("output_token_throughput"), (384.34936061 + 382.84939973) / 2, 1e-6);
  EXPECT_DOUBLE_EQ(points[1].gpus_or_one(), 2);
}

class PlotBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("inferperf-plot-bad-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string error_of() {
    try {
      load_run(dir_);
    } catch (const PlotError& e) {
      EXPECT_EQ(e.exit_code(), 2);
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(PlotBadInput, SummaryThatIsNotJsonNamesTheFile) {
  std::ofstream(dir_ / kSummaryFile) << "{not json";
  const std::string e = error_of();
  EXPECT_NE(e.find((dir_ / kSummaryFile).string()), std::string::npos) << e;
  EXPECT_NE(e.find("not valid JSON"), std::string::npos) << e;
}

// Counters are named without `_total` (AIPerf 0.11): the JSON export's types, not the names, keep
// them out of the gauges-over-time charts.
TEST_F(PlotBadInput, ServerCountersStayOutOfTheGaugeChartsByTheirType) {
  std::ofstream(dir_ / kSummaryFile) << "{}";
  std::ofstream(dir_ / "server_metrics_export.json")
      << R"({"metrics":{"tokens":{"type":"counter"},"running":{"type":"gauge"}}})";
  std::ofstream(dir_ / "server_metrics_export.jsonl")
      << R"({"endpoint_url":"u","timestamp_ns":1000000000,"metrics":{"tokens":[{"value":1}],"running":[{"value":1}]}})"
      << "\n"
      << R"({"endpoint_url":"u","timestamp_ns":2000000000,"metrics":{"tokens":[{"value":5}],"running":[{"value":3}]}})"
      << "\n";
  const RunData run = load_run(dir_);
  ASSERT_EQ(run.server.size(), 1u);
  EXPECT_EQ(run.server[0].name, "running");
}

TEST_F(PlotBadInput, RecordLineNamesFileLineAndField) {
  std::ofstream(dir_ / kSummaryFile) << "{}";
  std::ofstream(dir_ / "profile_export.jsonl")
      << R"({"metadata":{"request_start_ns":1,"request_end_ns":2},"metrics":{}})"
      << "\n\n"
      << R"({"metadata":{"request_start_ns":"soon","request_end_ns":2}})"
      << "\n";
  const std::string e = error_of();
  EXPECT_NE(e.find("profile_export.jsonl:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("metadata.request_start_ns"), std::string::npos) << e;
}

TEST_F(PlotBadInput, BrokenRawRecordNamesTheLine) {
  std::ofstream(dir_ / kSummaryFile) << "{}";
  std::ofstream(dir_ / "inferperf_records.jsonl") << R"({"phase":"profiling","intended_ns":5})"
                                                  << "\n";
  const std::string e = error_of();
  EXPECT_NE(e.find("inferperf_records.jsonl:1: field start_ns"), std::string::npos) << e;
}

TEST_F(PlotBadInput, BrokenTimesliceCsvNamesTheLine) {
  std::ofstream(dir_ / kSummaryFile) << "{}";
  std::ofstream(dir_ / "profile_export_aiperf_timeslices.csv")
      << "Timeslice,Metric,Unit,Stat,Value\n0,Time to First Token,ms,avg\n";
  const std::string e = error_of();
  EXPECT_NE(e.find("profile_export_aiperf_timeslices.csv:2:"), std::string::npos) << e;
}

}  // namespace
}  // namespace inferperf::plot
