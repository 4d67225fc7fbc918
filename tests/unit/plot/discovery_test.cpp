#include "plot/discovery.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "plot/plot_error.hpp"
#include "plot/points.hpp"
#include "plot/run_data.hpp"

namespace inferperf::plot {
namespace {

namespace fs = std::filesystem;

class PlotDiscovery : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("inferperf-plot-discovery-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // A run folder whose summary says it ran at `concurrency`.
  fs::path run(const fs::path& rel, int concurrency) {
    const fs::path dir = root_ / rel;
    fs::create_directories(dir);
    std::ofstream(dir / kSummaryFile)
        << R"({"request_throughput":{"unit":"requests/sec","avg":)" << concurrency * 10
        << R"(},"input_config":{"endpoint":{"model_names":["m"]},"loadgen":{"concurrency":)"
        << concurrency << "}}}";
    return dir;
  }
  fs::path root_;
};

TEST_F(PlotDiscovery, OneRunFolderIsOnePoint) {
  const auto dir = run("single", 4);
  const auto d = discover_runs({dir});
  ASSERT_EQ(d.points.size(), 1u);
  EXPECT_EQ(d.points[0].runs, std::vector<fs::path>{dir});
}

TEST_F(PlotDiscovery, TrialsOfASweepGroupEachPointsRuns) {
  // AIPerf 0.11's repeated sweep: profile_runs/trial_NNNN/<point>/.
  const auto a1 = run("sweep/profile_runs/trial_0001/concurrency_2", 2);
  const auto b1 = run("sweep/profile_runs/trial_0001/concurrency_8", 8);
  const auto a2 = run("sweep/profile_runs/trial_0002/concurrency_2", 2);
  const auto b2 = run("sweep/profile_runs/trial_0002/concurrency_8", 8);
  fs::create_directories(root_ / "sweep/aggregate/sweep_aggregate");
  const auto d = discover_runs({root_ / "sweep"});
  ASSERT_EQ(d.points.size(), 2u);
  EXPECT_EQ(d.points[0].runs, (std::vector<fs::path>{a1, a2}));
  EXPECT_EQ(d.points[1].runs, (std::vector<fs::path>{b1, b2}));
}

TEST_F(PlotDiscovery, RunFoldersSideBySideSortNumerically) {
  run("artifacts/c10", 10);
  run("artifacts/c2", 2);
  run("artifacts/c1", 1);
  fs::create_directories(root_ / "artifacts/plots");  // an earlier plot output: not a run
  const auto d = discover_runs({root_ / "artifacts"});
  ASSERT_EQ(d.points.size(), 3u);
  EXPECT_EQ(d.points[0].dir.filename(), "c1");
  EXPECT_EQ(d.points[1].dir.filename(), "c2");
  EXPECT_EQ(d.points[2].dir.filename(), "c10");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("plots"), std::string::npos);
}

TEST_F(PlotDiscovery, SweepPointsWithAndWithoutRepeatedRuns) {
  run("sweep/concurrency_1", 1);
  run("sweep/concurrency_2/profile_runs/run_0002", 2);
  run("sweep/concurrency_2/profile_runs/run_0001", 2);
  fs::create_directories(root_ / "sweep/concurrency_2/aggregate");
  std::ofstream(root_ / "sweep/sweep_summary.json") << "{}";
  const auto d = discover_runs({root_ / "sweep"});
  ASSERT_EQ(d.points.size(), 2u);
  EXPECT_EQ(d.points[0].runs.size(), 1u);
  ASSERT_EQ(d.points[1].runs.size(), 2u);
  EXPECT_EQ(d.points[1].runs[0].filename(), "run_0001");
  EXPECT_EQ(d.points[1].runs[1].filename(), "run_0002");
  EXPECT_EQ(d.points[1].dir.filename(), "concurrency_2");
}

TEST_F(PlotDiscovery, RepeatedRunsWithoutSweepAreOnePoint) {
  run("rep/profile_runs/run_0001", 3);
  run("rep/profile_runs/run_0002", 3);
  const auto d = discover_runs({root_ / "rep"});
  ASSERT_EQ(d.points.size(), 1u);
  EXPECT_EQ(d.points[0].runs.size(), 2u);
}

TEST_F(PlotDiscovery, SeveralPathsAddUp) {
  const auto a = run("a", 1);
  const auto b = run("b", 2);
  EXPECT_EQ(discover_runs({a, b}).points.size(), 2u);
}

TEST_F(PlotDiscovery, BadPathsNameThePath) {
  const fs::path missing = root_ / "nope";
  try {
    discover_runs({missing});
    FAIL() << "no error";
  } catch (const PlotError& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  std::ofstream(root_ / "file.txt") << "x";
  EXPECT_THROW(discover_runs({root_ / "file.txt"}), PlotError);
  fs::create_directories(root_ / "empty/sub");
  try {
    discover_runs({root_ / "empty"});
    FAIL() << "no error";
  } catch (const PlotError& e) {
    EXPECT_NE(std::string(e.what()).find("no run found"), std::string::npos) << e.what();
  }
}

TEST_F(PlotDiscovery, PointsAreLabelledByTheirConcurrencyAndSorted) {
  run("artifacts/c8", 8);
  run("artifacts/c2", 2);
  const auto points = load_points(discover_runs({root_ / "artifacts"}));
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].label, "c=2");
  EXPECT_EQ(points[1].label, "c=8");
  EXPECT_DOUBLE_EQ(*points[1].mean("request_throughput"), 80);
  EXPECT_EQ(points[1].params().model, "m");
}

}  // namespace
}  // namespace inferperf::plot
