// End-to-end failure handling: failed requests are counted records, never crashes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

std::vector<std::string> base_args(const MockServerProcess& mock, const std::string& dir, int count,
                                   int concurrency = 2) {
  return mock_profile_args(INFERPERF_BIN, mock, dir,
                           {"--streaming", "--concurrency", std::to_string(concurrency),
                            "--request-count", std::to_string(count)});
}

TEST(ProfileErrors, AllRequestsFailingExitsOneWithErrorSummary) {
  MockServerProcess mock({"--fast", "--error-rate", "100"});
  const std::string dir = make_temp_dir("ip-err100-");
  auto r = run_process(base_args(mock, dir, 6), std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto j = load_summary(dir);
  EXPECT_EQ(j["error_request_count"]["avg"].get<int>(), 6);
  EXPECT_FALSE(j.contains("request_count"));
  ASSERT_EQ(j["error_summary"].size(), 1u);
  EXPECT_EQ(j["error_summary"][0]["error_details"]["code"], 500);
  EXPECT_EQ(j["error_summary"][0]["count"], 6);
  EXPECT_NE(
      j["error_summary"][0]["error_details"]["message"].get<std::string>().find("Simulated error"),
      std::string::npos);
  EXPECT_NE(r.out.find("Error Summary"), std::string::npos);
}

TEST(ProfileErrors, PartialFailuresAreCountedApart) {
  MockServerProcess mock({"--fast", "--error-rate", "50", "--random-seed", "3"});
  const std::string dir = make_temp_dir("ip-err50-");
  auto r = run_process(base_args(mock, dir, 40), std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = load_summary(dir);
  const int ok = j["request_count"]["avg"].get<int>();
  const int bad = j["error_request_count"]["avg"].get<int>();
  EXPECT_EQ(ok + bad, 40);
  EXPECT_EQ(bad, mock.metric("inferperf_mock_errors_injected_total"));
  EXPECT_GT(bad, 5);
  EXPECT_GT(ok, 5);
}

struct FaultCase {
  const char* fault;
  const char* type;
  const char* timeout_s = "3";  // --request-timeout-seconds
  friend void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.fault; }
};

class ProfileFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(ProfileFaults, EveryFaultBecomesAnErrorRecord) {
  MockServerProcess mock({"--ttft", "5", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-fault-");
  auto args = base_args(mock, dir, 4);
  args.push_back("-H");
  args.push_back(std::string("X-Mock-Fault:") + GetParam().fault);
  args.push_back("--request-timeout-seconds");
  args.push_back(GetParam().timeout_s);
  auto r = run_process(args, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto j = load_summary(dir);
  EXPECT_EQ(j["error_request_count"]["avg"].get<int>(), 4) << j.dump(2);
  // Never re-sent: the server saw each of the four once.
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 4);
  // One kind of error, all four requests.
  ASSERT_EQ(j["error_summary"].size(), 1u) << j["error_summary"].dump();
  EXPECT_EQ(j["error_summary"][0]["count"], 4);
  EXPECT_EQ(j["error_summary"][0]["error_details"]["type"], GetParam().type)
      << j["error_summary"].dump();
}

INSTANTIATE_TEST_SUITE_P(Faults, ProfileFaults,
                         ::testing::Values(FaultCase{"truncate", "ClientPayloadError"},
                                           // A reset that lands behind the last bytes raises no
                                           // readiness edge: the worker's quiet-read check finds it
                                           // within about 1.5 s (a TimeoutError means it did not;
                                           // the timeout leaves room for a loaded sanitizer run).
                                           FaultCase{"truncate-reset", "ConnectionResetError",
                                                     "10"},
                                           FaultCase{"malformed", "ResponseParseError"},
                                           FaultCase{"error-event", "SSEResponseError"},
                                           FaultCase{"status=429", "Too Many Requests"},
                                           FaultCase{"stall", "TimeoutError"},
                                           FaultCase{"slow-headers=5000", "TimeoutError"},
                                           FaultCase{"close", "ServerDisconnectedError"},
                                           FaultCase{"reset", "ConnectionResetError"}),
                         [](const auto& param_info) {
                           std::string n = param_info.param.fault;
                           for (auto& c : n) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return n;
                         });

TEST(ProfileErrors, BigEventIsMeasuredNormally) {
  MockServerProcess mock({"--ttft", "5", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-big-");
  // One request: counting the 1 MiB event is the slow part under sanitizers.
  auto args = base_args(mock, dir, 1, 1);
  args.push_back("-H");
  args.push_back("X-Mock-Fault:big-event");
  auto r = run_process(args, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(load_summary(dir)["request_count"]["avg"].get<int>(), 1);
}

TEST(ProfileErrors, UnreachableServerIsCountedNotCrashed) {
  const std::string dir = make_temp_dir("ip-refused-");
  // Port 1 on loopback is not listening in the test environment. Without the preflight (which
  // would stop the run at once, see endpoints_test) every request is a counted error.
  auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", "http://127.0.0.1:1", "--streaming",
       "--concurrency", "1", "--request-count", "2", "--artifact-dir", dir, "--no-preflight"},
      std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto j = load_summary(dir);
  EXPECT_EQ(j["error_request_count"]["avg"].get<int>(), 2);
  EXPECT_EQ(j["error_summary"][0]["error_details"]["type"], "ConnectionRefusedError");
}

TEST(ProfileErrors, BadCommandLineExitsTwoAndSendsNothing) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-badcli-");
  // (AIPerf 0.11 takes a concurrency above the request count; a prefill concurrency above the
  // concurrency is still refused.)
  auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--concurrency", "2",
       "--prefill-concurrency", "8", "--streaming", "--request-count", "2", "--artifact-dir", dir},
      std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--prefill-concurrency (8) must not exceed --concurrency (2)"),
            std::string::npos)
      << r.out;
  auto r2 = run_process({INFERPERF_BIN, "profile", "-m", "x", "-u", mock.url(), "--arrival-pattern",
                         "constant", "--request-count", "4"},
                        std::chrono::seconds(30));
  EXPECT_EQ(r2.exit_code, 2);
  EXPECT_NE(r2.out.find("--arrival-pattern constant needs --request-rate"), std::string::npos)
      << r2.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

}  // namespace
}  // namespace inferperf::testing
