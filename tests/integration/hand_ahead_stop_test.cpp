// Open-loop rate runs hand credits to their workers ahead of their arrival (issue 29, item 6). A
// first SIGINT must send none of those not yet due: they are withdrawn without a record, the run
// still exits 130 at once, and what the mock received is exactly what the records hold.
#include <gtest/gtest.h>
#include <signal.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <set>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using namespace std::chrono_literals;

constexpr int kAheadSlowdown = INFERPERF_SANITIZER_BUILD ? 5 : 1;

TEST(InterruptHandAhead, AStopSendsNoCreditHandedOutAheadAndNotYetDue) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ahead-");
  // A one-second lead (the most INFERPERF_HAND_AHEAD_US takes) at 200 req/s: about 200 credits
  // are held by the workers at any time, more than a sanitizer build's delay between the signal
  // and the stop sends.
  setenv("INFERPERF_HAND_AHEAD_US", "1000000", 1);
  BackgroundProcess run(mock_profile_args(INFERPERF_BIN, mock, dir,
                                          {"--request-rate", "200", "--request-count", "100000",
                                           "--num-dataset-entries", "100"}),
                        dir + "/out.txt");
  unsetenv("INFERPERF_HAND_AHEAD_US");
  ASSERT_TRUE(mock.wait_for_requests(20, 60s)) << read_file(dir + "/out.txt");
  std::this_thread::sleep_for(200ms);
  const auto signalled_wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  run.signal(SIGINT);
  ASSERT_EQ(run.wait(std::chrono::milliseconds(5000 * kAheadSlowdown)), 130)
      << read_file(dir + "/out.txt");
  EXPECT_EQ(read_file(dir + "/out.txt").find("is not a number of microseconds"), std::string::npos)
      << "the lead was refused: the test would hold almost nothing";
  const auto j = load_summary(dir);
  EXPECT_EQ(j["was_cancelled"], true);
  const long long ok = summary_count(j, "request_count");
  EXPECT_GE(ok, 20);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), ok) << "withdrawn credits were sent";
  std::set<long long> credits;
  long long latest_intended = 0;
  for (const auto& line : read_lines(dir + "/inferperf_records.jsonl")) {
    const auto r = nlohmann::json::parse(line);
    credits.insert(r["session_num"].get<long long>());
    const long long intended = r["intended_ns"], issued = r["issued_ns"], start = r["start_ns"];
    EXPECT_GE(issued, intended) << "a held credit is released at its arrival, never before";
    EXPECT_GE(start, intended);
    latest_intended = std::max(latest_intended, intended);
  }
  ASSERT_EQ(static_cast<long long>(credits.size()), ok);
  // The global sequence, cut at the stop: credits 0..n-1, the withdrawn ones are all after them,
  // even with two workers timing their own shares (a late timer still sends a credit due before
  // the stop).
  EXPECT_EQ(*credits.begin(), 0);
  EXPECT_EQ(*credits.rbegin(), ok - 1);
  // Nothing due well after the stop went out (about 200 were held, due up to 1 s later).
  EXPECT_LT(latest_intended, signalled_wall + 150'000'000LL * kAheadSlowdown);
}

}  // namespace
}  // namespace inferperf::testing
