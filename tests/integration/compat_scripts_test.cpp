// The files read as AIPerf 0.11 users' scripts read them: one short streaming run with every
// export (records, raw, HTTP trace, time slices, an SLO), then each stdlib-only Python script in
// tests/compat/ on its folder (by key, by display name, by column position, per record); then a
// repeated run with server metrics and GPU telemetry, whose aggregate and per-run files get theirs.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

TEST(CompatScripts, AiperfUsersScriptsReadTheFilesUnchanged) {
  const std::string python = INFERPERF_PYTHON3;
  ASSERT_FALSE(python.empty()) << "python3 was not found when configuring (scripts/install-deps.sh "
                                  "installs it for the tests)";
  MockServerProcess mock({"--ttft", "5", "--itl", "2"});
  const std::string dir = make_temp_dir("ip-compat-");
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--endpoint-type",
                        "chat",
                        "--streaming",
                        "--concurrency",
                        "2",
                        "--request-count",
                        "12",
                        "--isl",
                        "16",
                        "--osl",
                        "8",
                        "--random-seed",
                        "5",
                        "--goodput",
                        "time_to_first_token:1000",
                        "--export-level",
                        "raw",
                        "--export-http-trace",
                        "--slice-duration",
                        "0.5",
                        "--artifact-dir",
                        dir,
                        "--ui-type",
                        "none"},
                       std::chrono::seconds(90));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string scripts = std::string(INFERPERF_SOURCE_DIR) + "/tests/compat";
  for (const char* script :
       {"summary_json_keys.py", "summary_csv_by_name.py", "summary_csv_positional.py",
        "records_jsonl.py", "raw_and_timeslices.py"}) {
    auto s = run_process({python, scripts + "/" + script, dir}, std::chrono::seconds(30), scripts);
    EXPECT_EQ(s.exit_code, 0) << script << ": " << s.out;
  }
}

// Non-empty lines of a script's output: with the Findings helper, one `script: what` per mismatch.
std::set<std::string> script_finding_lines(const std::string& out) {
  std::set<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.insert(line);
  return lines;
}

// A repeated run with every telemetry source on: two trials, the mock's /metrics page (scraped by
// default), its fake DCGM exporter, time slices. The scripts were written from the AIPerf 0.11
// contract; where inferperf differs from it today the script's finding is pinned below, so that a
// fix shows up here (drop the line) and any new divergence fails the test.
TEST(CompatScripts, RepeatedRunAggregatesServerMetricsAndGpuTelemetry) {
  const std::string python = INFERPERF_PYTHON3;
  ASSERT_FALSE(python.empty()) << "python3 was not found when configuring";
  // About 0.3 s per request, three rounds per trial: each trial spans two 0.5 s slices and
  // several 0.333 s scrapes.
  MockServerProcess mock({"--ttft", "50", "--itl", "40", "--dcgm-num-gpus", "2"});
  const std::string dir = make_temp_dir("ip-compat-multi-");
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--endpoint-type",
                        "chat",
                        "--streaming",
                        "--concurrency",
                        "2",
                        "--request-count",
                        "6",
                        "--isl",
                        "16",
                        "--osl",
                        "8",
                        "--num-profile-runs",
                        "2",
                        "--gpu-telemetry",
                        mock.url() + "/dcgm1/metrics",
                        "--slice-duration",
                        "0.5",
                        "--artifact-dir",
                        dir,
                        "--ui-type",
                        "none"},
                       std::chrono::seconds(90), "",
                       // Hermetic: no DCGM exporter on the host's default ports joins the run.
                       {"AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS=http://127.0.0.1:1/metrics"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  struct Case {
    const char* script;
    std::string folder;
    std::set<std::string> known;
  };
  const std::vector<Case> cases = {{"aggregate_files.py", dir, {}},
                                   {"server_metrics_files.py", dir + "/profile_runs/run_0001", {}},
                                   {"server_metrics_files.py", dir + "/profile_runs/run_0002", {}},
                                   {"gpu_telemetry_files.py", dir + "/profile_runs/run_0001", {}},
                                   {"gpu_telemetry_files.py", dir + "/profile_runs/run_0002", {}}};
  const std::string scripts = std::string(INFERPERF_SOURCE_DIR) + "/tests/compat";
  for (const auto& c : cases) {
    auto s = run_process({python, scripts + "/" + c.script, c.folder}, std::chrono::seconds(30),
                         scripts);
    EXPECT_EQ(s.exit_code, c.known.empty() ? 0 : 1) << c.script << " " << c.folder << ": " << s.out;
    EXPECT_EQ(script_finding_lines(s.out), c.known) << c.script << " " << c.folder;
  }
}

}  // namespace
}  // namespace inferperf::testing
