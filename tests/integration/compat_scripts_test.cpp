// The files read as AIPerf 0.11 users' scripts read them: one short streaming run with every
// export (records, raw, HTTP trace, time slices, an SLO), then each stdlib-only Python script in
// tests/compat/ on its folder (by key, by display name, by column position, per record).
#include <gtest/gtest.h>

#include <filesystem>
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

}  // namespace
}  // namespace inferperf::testing
