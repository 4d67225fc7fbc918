// Reliability end to end: faults at a rate, a server that closes every connection, a server killed
// and restarted mid-run, the failure threshold, signals and kill -9. Every request is accounted for
// on both sides: the client's records and the mock's own counter.
#include <gtest/gtest.h>
#include <signal.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> run_args(const MockServerProcess& mock, const std::string& dir,
                                  const std::vector<std::string>& more) {
  auto a = mock_profile_args(INFERPERF_BIN, mock, dir, {"--streaming"});
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// The sum of the records' connection_retries (inferperf_records.jsonl).
long long retries_in_records(const std::string& dir) {
  long long n = 0;
  for (const auto& line : read_lines(dir + "/inferperf_records.jsonl"))
    n += nlohmann::json::parse(line).value("connection_retries", 0LL);
  return n;
}

TEST(Reliability, MixedFaultsAreEachOneErrorRecordAndNeverResent) {
  MockServerProcess mock({"--fast", "--fault-rate", "30", "--random-seed", "11"});
  const std::string dir = make_temp_dir("ip-faultmix-");
  auto r = run_process(run_args(mock, dir,
                                {"--concurrency", "8", "--request-count", "200",
                                 // the progress line reads the live counters (TSan covers it)
                                 "--ui-type", "simple"}),
                       120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = load_summary(dir);
  const long long ok = summary_count(j, "request_count");
  const long long bad = summary_count(j, "error_request_count");
  EXPECT_EQ(ok + bad, 200);
  // A close or reset fault on a reused connection, before any response byte, looks on the wire
  // like a server closing an idle connection: sent again once (a connection retry, counted) and
  // never an error. Every other fault is exactly one error record; nothing is sent a third time.
  const long long retries = j.contains("server_behaviour")
                                ? j["server_behaviour"]["connection_retry_count"].get<long long>()
                                : 0;
  EXPECT_EQ(retries_in_records(dir), retries);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 200 + retries);
  EXPECT_EQ(mock.metric("inferperf_mock_errors_injected_total"), bad + retries);
  EXPECT_GT(bad, 20);
  EXPECT_GT(ok, 100);
  EXPECT_EQ(read_lines(dir + "/inferperf_records.jsonl").size(), 200u);
  // Several fault kinds show up under their own error types.
  EXPECT_GE(j["error_summary"].size(), 4u) << j["error_summary"].dump(1);
}

TEST(Reliability, AServerThatClosesAfterEveryResponseIsReconnectedTo) {
  MockServerProcess mock({"--fast", "--close-after-response"});
  const std::string dir = make_temp_dir("ip-closeafter-");
  // A gap between requests: the server's FIN is always there before the next send, so the
  // pre-reuse check must catch every closed connection and no request may fail.
  auto r = run_process(run_args(mock, dir,
                                {"--concurrency", "1", "--request-rate", "40", "--arrival-pattern",
                                 "constant", "--request-count", "20", "--no-server-metrics"}),
                       120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = load_summary(dir);
  EXPECT_EQ(summary_count(j, "request_count"), 20) << j.dump(1);
  EXPECT_EQ(summary_count(j, "error_request_count"), 0);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 20);
  EXPECT_GE(mock.metric("inferperf_mock_connections_total"), 20);
}

TEST(Reliability, ClosingServerUnderConcurrencyIsAccountedForExactly) {
  MockServerProcess mock({"--fast", "--close-after-response"});
  const std::string dir = make_temp_dir("ip-closeafter8-");
  auto r = run_process(run_args(mock, dir, {"--concurrency", "8", "--request-count", "100"}), 120s);
  // A close racing a send meets the request before the server read it: the request goes again on
  // a new connection (a connection retry, not an error), and the server serves each one once.
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = load_summary(dir);
  EXPECT_EQ(summary_count(j, "request_count"), 100) << j.dump(1);
  EXPECT_EQ(summary_count(j, "error_request_count"), 0);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 100);
}

// llama.cpp's server: keep-alive promised, the connection closed a few ms after each stream. The
// next request is written into the closing connection and dies before any response byte; without
// the retry that was an error record on every reused connection.
TEST(Reliability, AServerClosingShortlyAfterStreamsLosesNoRequest) {
  MockServerProcess mock({"--ttft", "1", "--itl", "1", "--close-after-response-delay-ms", "20",
                          "--close-only-after-streams"});
  const std::string dir = make_temp_dir("ip-closelater-");
  auto r = run_process(run_args(mock, dir,
                                {"--concurrency", "4", "--request-count", "60",
                                 "--no-server-metrics", "--ui-type", "none"}),
                       120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = load_summary(dir);
  EXPECT_EQ(summary_count(j, "request_count"), 60) << j.dump(1);
  EXPECT_EQ(summary_count(j, "error_request_count"), 0);
  // Nothing the server processed was sent twice.
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 60);
  ASSERT_TRUE(j.contains("server_behaviour")) << r.out;
  const auto& sb = j["server_behaviour"];
  EXPECT_EQ(sb["closes_connection_after_stream"], true);
  const long long retries = sb["connection_retry_count"].get<long long>();
  EXPECT_GE(retries, 1);
  // Once learned, connections are not reused after streams: few retries, not one per request.
  EXPECT_LE(retries, 8);
  EXPECT_EQ(retries_in_records(dir), retries);
  EXPECT_NE(r.out.find("closes the connection right after each streamed response"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("were sent again on a new one (not errors)"), std::string::npos);
  EXPECT_EQ(r.out.find("ServerDisconnectedError"), std::string::npos) << r.out;

  // Non-streamed responses keep the connection there: nothing to retry, nothing to report.
  const std::string plain = make_temp_dir("ip-closelater-plain-");
  auto args = run_args(
      mock, plain,
      {"--concurrency", "2", "--request-count", "20", "--no-server-metrics", "--ui-type", "none"});
  args.erase(std::find(args.begin(), args.end(), "--streaming"));
  const long long before = mock.metric("inferperf_mock_connections_total");
  r = run_process(args, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto p = load_summary(plain);
  EXPECT_EQ(summary_count(p, "request_count"), 20);
  EXPECT_FALSE(p.contains("server_behaviour")) << p.dump(1);
  // Reused: 2 workers, the preflight's, the server_info.json probe's and this /metrics read.
  EXPECT_LE(mock.metric("inferperf_mock_connections_total") - before, 5);
}

TEST(Reliability, ServerKilledAndRestartedOnItsPortMidRun) {
  auto first =
      std::make_unique<MockServerProcess>(std::vector<std::string>{"--ttft", "5", "--itl", "5"});
  const int port = first->port();
  const std::string dir = make_temp_dir("ip-restart-");
  // Open-ended: the run is stopped with SIGINT once the restarted server has served enough, so
  // slow (sanitizer) start-ups of either process cannot end it early.
  BackgroundProcess run(
      run_args(*first, dir,
               {"--concurrency", "8", "--request-rate", "40", "--arrival-pattern", "constant",
                "--request-count", "100000", "--request-timeout-seconds", "10",
                "--num-dataset-entries", "100"}),
      dir + "/out.txt");
  ASSERT_TRUE(first->wait_for_requests(30, 60s)) << read_file(dir + "/out.txt");
  first->kill_now();
  std::this_thread::sleep_for(500ms);
  MockServerProcess second({"--ttft", "5", "--itl", "5"}, port);
  // New connections reach the restarted server.
  ASSERT_TRUE(second.wait_for_requests(20, 60s)) << read_file(dir + "/out.txt");
  run.signal(SIGINT);
  ASSERT_EQ(run.wait(60s), 130) << read_file(dir + "/out.txt");
  const auto j = load_summary(dir);
  const long long ok = summary_count(j, "request_count");
  const long long bad = summary_count(j, "error_request_count");
  EXPECT_GE(bad, 1) << "requests in flight at the kill, or sent while the server was down, fail";
  // Everything the restarted server served succeeded, besides what the first one served.
  const long long served_after = second.metric("inferperf_mock_requests_total");
  EXPECT_GE(ok, served_after + 30 - 8);
  EXPECT_EQ(static_cast<long long>(read_lines(dir + "/inferperf_records.jsonl").size()), ok + bad);
}

TEST(Reliability, FailedRequestThresholdStopsTheRunEarly) {
  MockServerProcess mock({"--fast", "--error-rate", "60", "--random-seed", "5"});
  const std::string dir = make_temp_dir("ip-threshold-");
  auto r = run_process(run_args(mock, dir,
                                {"--concurrency", "2", "--request-rate", "200", "--request-count",
                                 "5000", "--failed-request-threshold", "0.3"}),
                       120s);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("--failed-request-threshold"), std::string::npos) << r.out;
  const auto j = load_summary(dir);
  const long long ok = summary_count(j, "request_count");
  const long long bad = summary_count(j, "error_request_count");
  EXPECT_EQ(j["was_cancelled"], true);
  EXPECT_GE(ok + bad, 10) << "armed after max(concurrency, 10) requests";
  EXPECT_LT(ok + bad, 1000);
  // Everything that was sent is in the records, including what the stop cancelled.
  EXPECT_EQ(ok + bad, mock.metric("inferperf_mock_requests_total"));
}

TEST(Reliability, FailuresUnderTheThresholdDoNotStopTheRun) {
  MockServerProcess mock({"--fast", "--error-rate", "10", "--random-seed", "5"});
  const std::string dir = make_temp_dir("ip-threshold-ok-");
  auto r = run_process(run_args(mock, dir,
                                {"--concurrency", "2", "--request-count", "100",
                                 "--failed-request-threshold", "0.5"}),
                       120s);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto j = load_summary(dir);
  EXPECT_EQ(summary_count(j, "request_count") + summary_count(j, "error_request_count"), 100);
  EXPECT_EQ(j["was_cancelled"], false);
}

// ---- interruption ---------------------------------------------------------------------------

struct SignalRun {
  MockServerProcess mock{{"--ttft", "5", "--itl", "50"}};  // ~1 s per request at --osl 20
  std::string dir = make_temp_dir("ip-signal-");
  std::unique_ptr<BackgroundProcess> proc;

  void start(const std::string& grace) {
    proc = std::make_unique<BackgroundProcess>(std::vector<std::string>{INFERPERF_BIN,
                                                                        "profile",
                                                                        "-m",
                                                                        "mock-model",
                                                                        "-u",
                                                                        mock.url(),
                                                                        "--streaming",
                                                                        "--concurrency",
                                                                        "4",
                                                                        "--request-count",
                                                                        "1000",
                                                                        "--osl",
                                                                        "20",
                                                                        "--extra-inputs",
                                                                        "ignore_eos:true",
                                                                        "--isl",
                                                                        "8",
                                                                        "--benchmark-grace-period",
                                                                        grace,
                                                                        "--artifact-dir",
                                                                        dir},
                                               dir + "/out.txt");
    // Six seen by the server: two have finished, four are in flight.
    ASSERT_TRUE(mock.wait_for_requests(6, 60s)) << log();
  }
  std::string log() const { return read_file(dir + "/out.txt"); }
};

TEST(Interruption, FirstSigintStopsSendingAndLetsInFlightRequestsFinish) {
  SignalRun s;
  s.start("20");
  s.proc->signal(SIGINT);
  ASSERT_EQ(s.proc->wait(30s), 130) << s.log();
  const auto j = load_summary(s.dir);
  EXPECT_EQ(j["was_cancelled"], true);
  const long long ok = summary_count(j, "request_count");
  EXPECT_GE(ok, 6);
  EXPECT_LT(ok, 1000);
  EXPECT_EQ(summary_count(j, "error_request_count"), 0) << "in-flight requests had time to finish";
  // Nothing was sent after the signal: the server saw exactly what finished.
  EXPECT_EQ(s.mock.metric("inferperf_mock_requests_total"), ok);
  EXPECT_NE(s.log().find("waiting up to 20 s"), std::string::npos) << s.log();
}

TEST(Interruption, SecondSignalCancelsInFlightRequestsAndStillExports) {
  SignalRun s;
  s.start("120");
  s.proc->signal(SIGTERM);
  std::this_thread::sleep_for(200ms);
  s.proc->signal(SIGINT);
  ASSERT_EQ(s.proc->wait(30s), 130) << s.log();
  const auto j = load_summary(s.dir);
  EXPECT_EQ(j["was_cancelled"], true);
  const long long ok = summary_count(j, "request_count");
  const long long bad = summary_count(j, "error_request_count");
  EXPECT_GE(bad, 1) << s.log();
  EXPECT_EQ(j["error_summary"][0]["error_details"]["code"], 499);
  EXPECT_EQ(ok + bad, s.mock.metric("inferperf_mock_requests_total"));
  EXPECT_EQ(read_lines(s.dir + "/inferperf_records.jsonl").size(), static_cast<size_t>(ok + bad));
}

TEST(Interruption, GraceOverCancelsWhatIsLeft) {
  SignalRun s;
  s.start("0.3");  // shorter than what the in-flight requests still need
  s.proc->signal(SIGINT);
  ASSERT_EQ(s.proc->wait(30s), 130) << s.log();
  const auto j = load_summary(s.dir);
  EXPECT_GE(summary_count(j, "error_request_count"), 1) << s.log();
  EXPECT_NE(s.log().find("grace period over"), std::string::npos) << s.log();
}

// ---- kill -9 --------------------------------------------------------------------------------

TEST(Durability, KillNineKeepsEveryFinishedRecordAndAnalyzeRebuildsTheReports) {
  MockServerProcess mock({"--ttft", "5", "--itl", "10"});
  const std::string dir = make_temp_dir("ip-kill9-");
  BackgroundProcess run(
      run_args(mock, dir,
               {"--concurrency", "4", "--request-count", "100000", "--num-dataset-entries", "100"}),
      dir + "/out.txt");
  ASSERT_TRUE(mock.wait_for_requests(40, 60s)) << read_file(dir + "/out.txt");
  // The mock's own count of finished requests, taken a little over a second before the kill:
  // every one of them must be on disk.
  std::this_thread::sleep_for(300ms);
  const long long finished_before =
      mock.metric("inferperf_mock_requests_total") - mock.metric("inferperf_mock_in_flight");
  std::this_thread::sleep_for(1200ms);
  run.signal(SIGKILL);
  ASSERT_EQ(run.wait(10s), 128 + SIGKILL);
  const auto lines = read_lines(dir + "/inferperf_records.jsonl");
  EXPECT_GE(static_cast<long long>(lines.size()), finished_before);
  EXPECT_FALSE(std::filesystem::exists(dir + "/profile_export_aiperf.json"));

  auto again = run_process({INFERPERF_BIN, "analyze", dir}, 120s);
  ASSERT_EQ(again.exit_code, 130) << again.out;  // the run did not finish: cancelled
  const auto j = load_summary(dir);
  EXPECT_EQ(j["was_cancelled"], true);
  EXPECT_GE(summary_count(j, "request_count"), finished_before);
  // Token metrics come back too: the analysis re-counts with the run's tokenizer.
  ASSERT_TRUE(j.contains("output_sequence_length")) << j.dump(1);
  EXPECT_DOUBLE_EQ(j["output_sequence_length"]["avg"].get<double>(), 8.0);
  ASSERT_TRUE(j.contains("input_sequence_length")) << j.dump(1);
  EXPECT_NEAR(j["input_sequence_length"]["avg"].get<double>(), 16.0, 1.0);
}

}  // namespace
}  // namespace inferperf::testing
