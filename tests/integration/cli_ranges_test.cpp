// Hostile numbers on the real command line (issue 25, rows 1, 3, 8, 10): exit 2 at once with the
// flag named, and nothing reaches the server, not even the preflight.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

struct Case {
  std::vector<std::string> flags;
  std::string message;
};

TEST(CliRanges, HostileNumbersExitTwoAndSendNothing) {
  MockServerProcess mock({});
  const std::string dir = make_temp_dir("cli_ranges");
  const std::vector<Case> cases = {
      {{"--request-rate", "inf"},
       "error: --request-rate must be a finite number of requests per second between 0.001 and "
       "10,000,000 (got inf)"},
      {{"--request-rate", "1e11", "--request-count", "100"}, "--request-rate must be"},
      {{"--request-count", "99999999999999999999"},
       "error: --request-count must be a whole number between 1 and 1,000,000,000,000 (got "
       "99999999999999999999)"},
      {{"--request-count", "99999999999999999999", "--dry-run"}, "--request-count must be"},
      {{"--isl-stddev", "nan"}, "error: --isl-stddev must be a finite number of tokens"},
      {{"--request-timeout-seconds", "nan"},
       "error: --request-timeout-seconds must be a finite number of seconds from 0.001 to "
       "31,536,000 (365 days) (got nan)"},
      {{"--osl", "0"}, "error: --osl must be a whole number of tokens between 1 and 10,000,000"},
      {{"--concurency", "4"}, "error: unknown option --concurency; did you mean --concurrency?"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv = {
        INFERPERF_BIN, "profile",        "-m",         "mock-model", "-u",
        mock.url(),    "--artifact-dir", dir + "/run", "--ui",       "none"};
    argv.insert(argv.end(), c.flags.begin(), c.flags.end());
    const auto r = run_process(argv, std::chrono::seconds(20));
    EXPECT_EQ(r.exit_code, 2) << c.flags.front() << ": " << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << r.out;
    EXPECT_LT(r.wall_s, 5.0) << "refused up front, not after a run";
  }
  // Read first, the connections count only this /metrics request itself.
  EXPECT_LE(mock.metric("inferperf_mock_connections_total"), 1);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
  EXPECT_EQ(read_file(dir + "/run/profile_export.json"), "") << "no artifacts written";
}

TEST(CliRanges, AnEmptyModelNameIsRefusedByFlag) {
  const auto r =
      run_process({INFERPERF_BIN, "profile", "-m", "", "-u", "http://127.0.0.1:9", "--ui", "none"},
                  std::chrono::seconds(20));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("error: -m/--model-names: a model name cannot be empty"), std::string::npos)
      << r.out;
}

// AIPerf 0.11 command-line rules in a dry run: a URL without a scheme, the --no- forms of the
// negatable booleans, the warmup ramps (defaulting to the profiling one) and --session-header are
// accepted; --vary-seed-per-trial derives the seed.
TEST(CliRanges, AiperfElevenDryRunRules) {
  const auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", "127.0.0.1:9", "--concurrency", "4",
       "--concurrency-ramp-duration", "2", "--warmup-request-count", "3", "--no-auto-plot",
       "--no-set-consistent-seed", "--no-profile-run-disable-warmup-after-first",
       "--no-vary-seed-per-trial", "--session-header", "X-Session-Id", "--dry-run"},
      std::chrono::seconds(20));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("warmup: concurrency 4 ramped over 2 s, 3 requests"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("profiling: concurrency 4 ramped over 2 s"), std::string::npos) << r.out;
  const auto rate = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "--request-rate",
                                 "8", "--request-rate-ramp-duration", "2", "--warmup-duration", "1",
                                 "--warmup-request-rate-ramp-duration", "0.5", "--dry-run"},
                                std::chrono::seconds(20));
  ASSERT_EQ(rate.exit_code, 0) << rate.out;
  EXPECT_NE(rate.out.find("warmup: 8 req/s poisson ramped over 0.5 s, 1 s"), std::string::npos)
      << rate.out;
  EXPECT_NE(rate.out.find("profiling: 8 req/s poisson ramped over 2 s"), std::string::npos)
      << rate.out;
  // --vary-seed-per-trial: each trial's seed is SHA-256 of "5:variation:base:trial:<n>".
  const auto varied =
      run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "--random-seed", "5",
                   "--num-profile-runs", "2", "--vary-seed-per-trial", "--dry-run"},
                  std::chrono::seconds(20));
  EXPECT_EQ(varied.exit_code, 0) << varied.out;
  EXPECT_NE(varied.out.find("--random-seed 5923050222508316399"), std::string::npos) << varied.out;
  EXPECT_NE(varied.out.find("--random-seed 4322289136321147357"), std::string::npos) << varied.out;
}

}  // namespace
}  // namespace inferperf::testing
