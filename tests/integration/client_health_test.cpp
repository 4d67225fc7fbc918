// The client's self-check end to end: a client starved of CPU (one worker pinned with taskset to
// a core that CPU burners occupy) must say so, naming the cause, in its output and in the
// `client_health` block; a calm run must not. RUN_SERIAL: other tests on the same two cores would
// make the calm run's numbers meaningless.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using namespace std::chrono_literals;

nlohmann::json client_health_of(const std::string& dir) {
  const auto j = nlohmann::ordered_json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_TRUE(j.contains("client_health"));
  // After every AIPerf key: it is the summary's last key.
  EXPECT_EQ(std::prev(j.end()).key(), "client_health");
  return nlohmann::json(j.value("client_health", nlohmann::ordered_json::object()));
}

TEST(ClientHealth, StarvedClientWarnsAndNamesTheCause) {
  if (!std::filesystem::exists("/usr/bin/taskset")) GTEST_SKIP() << "taskset (util-linux) missing";
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-health-starved-");
  // Two burners on core 0 leave the client pinned there a third of the core, against a server
  // that answers at once: its one worker can never keep up.
  std::vector<std::unique_ptr<BackgroundProcess>> burners;
  for (int i = 0; i < 2; ++i) {
    burners.push_back(std::make_unique<BackgroundProcess>(
        std::vector<std::string>{"/usr/bin/taskset", "-c", "0", "/bin/sh", "-c",
                                 "while :; do :; done"},
        dir + "/burner" + std::to_string(i) + ".log"));
  }
  auto r = run_process({"/usr/bin/taskset",
                        "-c",
                        "0",
                        INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--streaming",
                        "--isl",
                        "16",
                        "--osl",
                        "50",
                        "--extra-inputs",
                        "ignore_eos:true",
                        "--concurrency",
                        "32",
                        "--request-count",
                        "1000",
                        "--workers-max",
                        "1",
                        "--artifact-dir",
                        dir,
                        "--ui-type",
                        "none"},
                       180s);
  burners.clear();
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("client saturated:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Client health: SATURATED"), std::string::npos) << r.out;
  const auto h = client_health_of(dir);
  EXPECT_EQ(h["saturated"], true);
  ASSERT_FALSE(h["causes"].empty());
  EXPECT_FALSE(h["warnings"].empty());
  EXPECT_EQ(h["measured"], true);
  EXPECT_EQ(h["worker_count"], 1);
  ASSERT_EQ(h["workers"].size(), 1u);
  EXPECT_GT(h["workers"][0]["loop_lag_samples"].get<long long>(), 0);
  EXPECT_EQ(h["requests"], 1000);
  EXPECT_GE(h["events"].get<long long>(), 1000 * 50);
  EXPECT_GT(h["cpu_us_per_event"].get<double>(), 0.0);
  // Starved, not busy: the cause is lateness (loop or schedule), whatever the CPU share was.
  bool late = false;
  for (const auto& c : h["causes"]) late |= c == "event_loop_lag" || c == "schedule_lag";
  EXPECT_TRUE(late) << h.dump(2);
}

TEST(ClientHealth, CalmRunIsHealthyAndAnalyzeReproducesTheBlock) {
  MockServerProcess mock({"--ttft", "2", "--itl", "1"});
  // RUN_SERIAL keeps other tests away, not other processes: one preemption of a few ms by an
  // unrelated job, or one slow vCPU wake-up on a VM, lands in the loop-lag p99 of a 1 s run (115
  // probes: p99 is the second slowest). 1,400 requests make a 4 s window (400 probes), measured
  // on the 2-vCPU CI machine: p99 0.1-0.5 ms with single stalls of up to 3.7 ms. A healthy client
  // is healthy in at least one of three runs; a client whose self-check misjudges a calm run is
  // flagged in all three.
  std::string dir;
  ProcessResult r;
  nlohmann::json h;
  for (int attempt = 0; attempt < 3; ++attempt) {
    dir = make_temp_dir("ip-health-calm-");
    r = run_process({INFERPERF_BIN,
                     "profile",
                     "-m",
                     "mock-model",
                     "-u",
                     mock.url(),
                     "--streaming",
                     "--isl",
                     "16",
                     "--osl",
                     "10",
                     "--extra-inputs",
                     "ignore_eos:true",
                     "--concurrency",
                     "4",
                     "--request-count",
                     "1400",
                     "--artifact-dir",
                     dir,
                     "--ui-type",
                     "none"},
                    120s);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    h = client_health_of(dir);
    // The block is there and consistent whatever the verdict.
    EXPECT_EQ(h["saturated"].get<bool>(), !h["causes"].empty());
    EXPECT_EQ(h["requests"], 1400);
    EXPECT_GE(h["events"].get<long long>(), 1400 * 10);
    EXPECT_GT(h["window_s"].get<double>(), 0.5);
    for (const auto& w : h["workers"]) {
      // One probe every 10 ms over the window (a few late ones are skipped, never doubled).
      EXPECT_GT(w["loop_lag_samples"].get<double>(), 0.5 * h["window_s"].get<double>() * 100);
      EXPECT_LE(w["loop_lag_samples"].get<double>(), h["window_s"].get<double>() * 100 + 2);
    }
    if (!h["saturated"].get<bool>()) break;
  }
  // Instrumented client and mock are several times slower and, on two cores, late by
  // milliseconds (measured in the ASan stage: loop-lag p99 2.1 ms in all three runs): the calm
  // verdict is judged in the release tree only; the block's contents and `analyze` still are here.
  if (!INFERPERF_SANITIZER_BUILD) {
    EXPECT_EQ(h["saturated"], false) << h.dump(2);
    EXPECT_TRUE(h["causes"].empty());
    EXPECT_EQ(r.out.find("client saturated"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("SATURATED"), std::string::npos) << r.out;
    EXPECT_LT(h["worker_cpu_percent_max"].get<double>(), 90.0);
  }

  std::filesystem::remove(dir + "/profile_export_aiperf.json");
  auto again = run_process({INFERPERF_BIN, "analyze", dir}, 60s);
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(client_health_of(dir), h);
}

}  // namespace
}  // namespace inferperf::testing
