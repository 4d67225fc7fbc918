// Hardening (issue 25, rows 1 and 11): the first SIGINT stops an always-due schedule at once and
// the run still exports; a records file that cannot be written stops the run at once, says why on
// the console and in the log, keeps what was written, exits 1, and `analyze` rebuilds from it.
#include <gtest/gtest.h>
#include <signal.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr int kSlowdown = INFERPERF_SANITIZER_BUILD ? 5 : 1;
const std::string kRecords = "/inferperf_records.jsonl";

std::vector<std::string> disk_run_args(const MockServerProcess& mock, const std::string& dir,
                                       const std::vector<std::string>& more) {
  return mock_profile_args(INFERPERF_BIN, mock, dir, more);
}

// Every line of the records file is a whole record.
long long whole_records(const std::string& dir) {
  long long n = 0;
  for (const auto& line : read_lines(dir + kRecords)) {
    EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << line;
    ++n;
  }
  return n;
}

// ---- row 1: signals ----------------------------------------------------------------------------

TEST(Interruption, FirstSigintStopsTheHighestRateAtOnceAndExports) {
  // The highest rate and count validation accepts, one slot: the issuer is always behind,
  // dropping and skipping arrivals in every poll (the issuer spun and ignored signals).
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sigrate-");
  BackgroundProcess run(
      disk_run_args(mock, dir,
                    {"--request-rate", "10000000", "--request-count", "1000000000", "--concurrency",
                     "1", "--num-dataset-entries", "100"}),
      dir + "/out.txt");
  ASSERT_TRUE(mock.wait_for_requests(1, 60s)) << read_file(dir + "/out.txt");
  std::this_thread::sleep_for(500ms);
  const auto sent = std::chrono::steady_clock::now();
  run.signal(SIGINT);
  ASSERT_EQ(run.wait(std::chrono::milliseconds(2000 * kSlowdown)), 130)
      << "still running 2 s after the first SIGINT\n"
      << read_file(dir + "/out.txt");
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  const std::string out = read_file(dir + "/out.txt");
  EXPECT_NE(out.find("received Interrupt: no more requests are sent"), std::string::npos) << out;
  const auto j = load_summary(dir);
  EXPECT_EQ(j["was_cancelled"], true);
  const long long ok = summary_count(j, "request_count");
  EXPECT_GE(ok, 1);
  EXPECT_EQ(ok, whole_records(dir));
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), ok) << "nothing sent after the stop";
  RecordProperty("exit_after_sigint_s", std::to_string(took));
}

// ---- row 11: disk full -------------------------------------------------------------------------

void expect_stopped_at_once(const ProcessResult& r, const std::string& dir, long long planned) {
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const std::string said =
      "writing " + dir + kRecords + " failed: No space left on device; stopping the run";
  EXPECT_NE(r.out.find(said), std::string::npos) << r.out;
  // The log keeps every line logged before the disk filled, and the failure itself.
  const std::string log = read_file(dir + "/logs/inferperf.log");
  EXPECT_NE(log.find("profiling: concurrency 2"), std::string::npos) << log;
  EXPECT_NE(log.find(said), std::string::npos) << log;
  const long long kept = whole_records(dir);
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, planned) << "the run was stopped, not finished";
}

// `analyze` on a copy of the folder (with room to write) rebuilds the reports from the records
// that reached the disk, token counts included.
void expect_analyze_rebuilds(const std::string& dir) {
  const std::string copy = make_temp_dir("ip-disk-copy-");
  fs::copy(dir, copy, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  auto again = run_process({INFERPERF_BIN, "analyze", copy}, 120s);
  EXPECT_EQ(again.exit_code, 130) << again.out;  // the run was stopped early: cancelled
  const auto j = load_summary(copy);
  EXPECT_EQ(summary_count(j, "request_count"), whole_records(copy));
  ASSERT_TRUE(j.contains("output_sequence_length")) << j.dump(1);
  EXPECT_DOUBLE_EQ(j["output_sequence_length"]["avg"].get<double>(), 8.0);
}

TEST(DiskFull, AnInjectedWriteFailureStopsTheRunAtOnce) {
  // The writer's test hook: its writes fail with ENOSPC past the file's first 20,000 bytes.
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-diskhook-");
  auto r = run_process(disk_run_args(mock, dir,
                                     {"--concurrency", "2", "--request-count", "100000",
                                      "--num-dataset-entries", "100"}),
                       120s, "", {"INFERPERF_TEST_FAIL_WRITES_AFTER_BYTES=20000"});
  expect_stopped_at_once(r, dir, 100000);
  EXPECT_LE(fs::file_size(dir + kRecords), 20000u);
  EXPECT_LT(mock.metric("inferperf_mock_requests_total"), 100000);
  // Here the disk has room for the exports: they cover every record the run received.
  const auto j = load_summary(dir);
  EXPECT_EQ(j["was_cancelled"], true);
  EXPECT_GE(summary_count(j, "request_count"), whole_records(dir));
  expect_analyze_rebuilds(dir);
}

// A 2 MB tmpfs (root and mount permission, else skipped), unmounted whatever happens.
struct SmallTmpfs {
  std::string dir = make_temp_dir("ip-tmpfs-");
  bool mounted = false;
  std::string why;
  SmallTmpfs() {
    auto m =
        run_process({"/usr/bin/env", "mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir}, 10s);
    mounted = m.exit_code == 0;
    why = m.out;
  }
  ~SmallTmpfs() {
    if (mounted) run_process({"/usr/bin/env", "umount", dir}, 10s);
  }
};

TEST(DiskFull, AFullTmpfsStopsTheRunAtOnceAndKeepsTheLog) {
  SmallTmpfs fs2m;
  if (!fs2m.mounted) GTEST_SKIP() << "mount -t tmpfs is not permitted here: " << fs2m.why;
  MockServerProcess mock({"--fast"});
  const std::string dir = fs2m.dir + "/run";
  auto r = run_process(disk_run_args(mock, dir,
                                     {"--streaming", "--concurrency", "2", "--request-count",
                                      "100000", "--num-dataset-entries", "100"}),
                       120s);
  expect_stopped_at_once(r, dir, 100000);
  expect_analyze_rebuilds(dir);
}

}  // namespace
}  // namespace inferperf::testing
