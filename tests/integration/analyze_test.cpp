// `inferperf analyze` rebuilds a run's reports from its artifact folder, byte for byte.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kReports = {
    "profile_export_aiperf.json", "profile_export_aiperf.csv", "profile_export.jsonl",
    "profile_export_aiperf_timeslices.csv", "profile_export_aiperf_timeslices.json"};

// `analyze_env`: the environment of the analyze run (the profile run has none of it).
void profile_then_analyze(const std::vector<std::string>& extra, const std::string& name,
                          const std::vector<std::string>& analyze_env = {}) {
  MockServerProcess mock({"--ttft", "5", "--itl", "1", "--tokens-per-event", "2"});
  const std::string dir = make_temp_dir("ip-analyze-");
  std::vector<std::string> args = {INFERPERF_BIN, "profile", "-m", "mock-model",     "-u",
                                   mock.url(),    "--isl",   "24", "--artifact-dir", dir};
  args.insert(args.end(), extra.begin(), extra.end());
  auto run = run_process(args, std::chrono::seconds(90));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  std::vector<std::string> before;
  for (const auto& f : kReports) {
    before.push_back(fs::exists(dir + "/" + f) ? read_file(dir + "/" + f) : "");
    fs::remove(dir + "/" + f);  // analyze must write them again
  }
  auto again =
      run_process({INFERPERF_BIN, "analyze", dir}, std::chrono::seconds(60), "", analyze_env);
  ASSERT_EQ(again.exit_code, 0) << again.out;
  for (std::size_t i = 0; i < kReports.size(); ++i) {
    const std::string path = dir + "/" + kReports[i];
    EXPECT_EQ(fs::exists(path) ? read_file(path) : "", before[i]) << name << ": " << kReports[i];
  }
  EXPECT_FALSE(before[0].empty());
  EXPECT_NE(again.out.find("inferperf | LLM Metrics"), std::string::npos) << again.out;
  if (!analyze_env.empty()) {
    EXPECT_NE(again.out.find("values went through a scratch file"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("timeslice metric columns"), std::string::npos) << again.out;
  }
}

// The analysis spills every metric column to its scratch file after every record (a zero budget)
// and still rebuilds the profile run's in-memory reports byte for byte.
TEST(Analyze, StreamingRunIsRebuiltByteForByteWithSpilledColumns) {
  profile_then_analyze({"--streaming", "--concurrency", "4", "--request-count", "24", "--osl", "12",
                        "--slice-duration", "0.05", "--goodput", "time_to_first_token:50",
                        "--cross-tool-metrics", "--export-http-trace", "--random-seed", "7"},
                       "streaming", {"INFERPERF_COLUMN_MEMORY_MB=0"});
}

TEST(Analyze, MultiTurnRateRunWithServerCountsIsRebuiltByteForByte) {
  profile_then_analyze({"--request-rate", "200", "--num-sessions", "6", "--session-turns-mean", "2",
                        "--use-server-token-count", "--streaming", "--warmup-request-count", "2"},
                       "multi-turn");
}

TEST(Analyze, ExportPrefixNamesEveryFileAndAnalyzeKeepsIt) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-prefix-");
  auto run = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--request-count", "4",
       "--profile-export-prefix", "run1.json", "--slice-duration", "1", "--artifact-dir", dir},
      std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  for (const char* f :
       {"run1.json", "run1.csv", "run1.jsonl", "run1_timeslices.csv", "run1_timeslices.json"}) {
    EXPECT_TRUE(fs::exists(dir + "/" + f)) << f;
  }
  EXPECT_FALSE(fs::exists(dir + "/profile_export_aiperf.json"));
  const std::string summary = read_file(dir + "/run1.json");
  fs::remove(dir + "/run1.json");
  auto again = run_process({INFERPERF_BIN, "analyze", dir}, std::chrono::seconds(60));
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(read_file(dir + "/run1.json"), summary);
}

// A replayed trace that loses rows to server faults says so (console box, JSON block), analyze
// rebuilds the same block, and --fail-on-incomplete-workload turns the loss into exit 1.
TEST(Analyze, AnIncompleteTraceReplayIsReportedAndReproduced) {
  MockServerProcess mock(
      {"--fast", "--fault-rate", "30", "--fault-kinds", "status=503", "--random-seed", "5"});
  const std::string dir = make_temp_dir("ip-integrity-");
  std::string rows;
  for (int i = 0; i < 12; ++i)
    rows += "{\"input_length\": " + std::to_string(40 + i) + ", \"output_length\": 4}\n";
  std::ofstream(dir + "/trace.jsonl") << rows;
  std::vector<std::string> args = {INFERPERF_BIN,
                                   "profile",
                                   "-m",
                                   "mock-model",
                                   "-u",
                                   mock.url(),
                                   "--input-file",
                                   dir + "/trace.jsonl",
                                   "--custom-dataset-type",
                                   "mooncake_trace",
                                   "--no-fixed-schedule",
                                   "--dataset-sampling-strategy",
                                   "sequential",
                                   "--concurrency",
                                   "2",
                                   "--request-count",
                                   "12",
                                   "--ui-type",
                                   "none",
                                   "--artifact-dir",
                                   dir + "/out"};
  auto run = run_process(args, std::chrono::seconds(90));
  ASSERT_EQ(run.exit_code, 0) << run.out;  // AIPerf's contract: failed requests still exit 0
  const std::string json_path = dir + "/out/profile_export_aiperf.json";
  const auto j = nlohmann::json::parse(read_file(json_path));
  const auto& b = j["workload_integrity"];
  const long long failed = mock.metric("inferperf_mock_errors_injected_total");
  ASSERT_GE(failed, 1);
  EXPECT_EQ(b["planned_requests"], 12);
  EXPECT_EQ(b["sent_requests"], 12);
  EXPECT_EQ(b["failed_requests"], failed);
  EXPECT_EQ(b["valid_requests"], 12 - failed);
  EXPECT_EQ(b["dataset_rows"], 12);
  EXPECT_EQ(b["planned_rows_basis"], "in file order");
  EXPECT_EQ(b["rows_without_valid_record"], failed);  // each row was sent once
  EXPECT_EQ(b["missing_row_indexes"].size(), static_cast<std::size_t>(failed));
  EXPECT_EQ(b["complete"], false);
  EXPECT_NE(run.out.find("Incomplete Workload"), std::string::npos) << run.out;

  const std::string before = read_file(json_path);
  fs::remove(json_path);
  auto again = run_process({INFERPERF_BIN, "analyze", dir + "/out"}, std::chrono::seconds(60));
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(read_file(json_path), before);
  EXPECT_NE(again.out.find("Incomplete Workload"), std::string::npos) << again.out;

  args.back() = dir + "/strict";
  args.push_back("--fail-on-incomplete-workload");
  auto strict = run_process(args, std::chrono::seconds(90));
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  EXPECT_TRUE(fs::exists(dir + "/strict/profile_export_aiperf.json"));
}

TEST(Analyze, MissingFolderIsExitTwo) {
  auto r = run_process({INFERPERF_BIN, "analyze", "/nonexistent/inferperf-run"},
                       std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("inferperf_run.json"), std::string::npos) << r.out;
}

TEST(Analyze, ATruncatedLastRecordIsSkipped) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-analyze-cut-");
  auto run = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(),
                          "--request-count", "5", "--artifact-dir", dir},
                         std::chrono::seconds(60));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  {
    std::ofstream f(dir + "/inferperf_records.jsonl", std::ios::app);
    f << R"({"phase":"profiling","session_num":9,"x_req)";  // killed mid-line
  }
  auto again = run_process({INFERPERF_BIN, "analyze", dir}, std::chrono::seconds(60));
  EXPECT_EQ(again.exit_code, 0) << again.out;
  EXPECT_NE(again.out.find("incomplete last record skipped"), std::string::npos) << again.out;
}

}  // namespace
}  // namespace inferperf::testing
