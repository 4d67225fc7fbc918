// inputs.json written beside the run (issue 29, item 5): the same file, byte for byte, as when it
// is written before the first request, the log saying which; and a folder without room for it
// runs without it, saying so.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

ProcessResult run_small(const MockServerProcess& mock, const std::string& dir,
                        const std::vector<std::string>& env) {
  return run_process(
      mock_profile_args(INFERPERF_BIN, mock, dir,
                        {"--concurrency", "2", "--request-count", "12", "--num-dataset-entries",
                         "6", "--random-seed", "7", "--conversation-turn-mean", "2"}),
      120s, "", env);
}

TEST(InputsJsonBesideRun, TheSameFileAsBeforeTheRun) {
  MockServerProcess mock({"--fast"});
  const std::string before = make_temp_dir("ip-inputs-before-");
  const std::string beside = make_temp_dir("ip-inputs-beside-");
  const auto a = run_small(mock, before, {});
  ASSERT_EQ(a.exit_code, 0) << a.out;
  const auto b = run_small(mock, beside, {"INFERPERF_TEST_INPUTS_JSON_BACKGROUND_BYTES=0"});
  ASSERT_EQ(b.exit_code, 0) << b.out;
  const std::string inputs = read_file(beside + "/inputs.json");
  EXPECT_EQ(inputs, read_file(before + "/inputs.json"));
  EXPECT_NE(inputs.find("\"payloads\""), std::string::npos);
  EXPECT_FALSE(fs::exists(beside + "/inputs.json.tmp"));
  const std::string log_a = read_file(before + "/logs/inferperf.log");
  const std::string log_b = read_file(beside + "/logs/inferperf.log");
  EXPECT_EQ(log_a.find("written beside the run"), std::string::npos) << log_a;
  // Beside the run: announced before the profiling starts, its size logged once it is done.
  const auto announced = log_b.find("conversations, written beside the run");
  const auto profiling = log_b.find("profiling: concurrency 2");
  const auto written = log_b.find("inputs.json: 12 payloads of 6 conversations");
  ASSERT_NE(announced, std::string::npos) << log_b;
  ASSERT_NE(profiling, std::string::npos) << log_b;
  ASSERT_NE(written, std::string::npos) << log_b;
  EXPECT_LT(announced, profiling);
  EXPECT_LT(profiling, written);
}

}  // namespace
}  // namespace inferperf::testing
