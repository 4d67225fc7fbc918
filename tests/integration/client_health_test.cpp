// The client's self-check end to end: a client starved of CPU (one worker pinned with taskset to
// a core that CPU burners occupy) must say so, naming the cause, in its output and in the
// `client_health` block; a calm run's verdict must follow from its own reported numbers.
// RUN_SERIAL: other tests on the same two cores would blur both.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <set>
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

// Burners on the client's only core: its loop and sends run late while the worker itself is mostly
// idle, waiting for a CPU. That is the host's contention, said as such, not the client's
// saturation (the case that made a llama.cpp server on the same cores read as "SATURATED").
TEST(ClientHealth, StarvedClientWarnsAndNamesTheHostContention) {
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
  EXPECT_NE(r.out.find("host contended:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Host: CONTENDED"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Client health: SATURATED"), std::string::npos) << r.out;
  const auto h = client_health_of(dir);
  EXPECT_EQ(h["saturated"], false) << h.dump(2);
  EXPECT_EQ(h["host_contended"], true) << h.dump(2);
  EXPECT_TRUE(h["causes"].empty());
  ASSERT_FALSE(h["contention"].empty());
  EXPECT_GT(h["run_queue_wait_percent_max"].get<double>(), 5.0);
  EXPECT_EQ(h["measured"], true);
  EXPECT_EQ(h["worker_count"], 1);
  ASSERT_EQ(h["workers"].size(), 1u);
  EXPECT_GT(h["workers"][0]["loop_lag_samples"].get<long long>(), 0);
  EXPECT_EQ(h["requests"], 1000);
  EXPECT_GE(h["events"].get<long long>(), 1000 * 50);
  EXPECT_GT(h["cpu_us_per_event"].get<double>(), 0.0);
  // Starved, not busy: lateness (loop or schedule) and the wait for a CPU are named.
  bool late = false, waited = false;
  for (const auto& c : h["contention"]) {
    const std::string s = c.get<std::string>();
    late |= s.find("lag p99") != std::string::npos;
    waited |= s.find("for a CPU while using") != std::string::npos;
  }
  EXPECT_TRUE(late && waited) << h.dump(2);
}

TEST(ClientHealth, CalmRunIsJudgedByItsOwnNumbersAndAnalyzeReproducesTheBlock) {
  MockServerProcess mock({"--ttft", "2", "--itl", "1"});
  // Whether a calm run's loop lag stays under 1 ms is a property of the machine, not of the
  // client: on the 2-vCPU CI machine single vCPU stalls of 2-4 ms put a 4 s run's loop-lag p99 at
  // 2.7 ms in three runs out of three (CI, 2026-12-01). So this test checks what the client owns:
  // the verdict follows from the numbers it reports against the thresholds it reports, every
  // cause is printed, a calm run never blames its CPU, and `analyze` reproduces the block. The
  // "a calm run is healthy" judgement lives in bench/health_calm.sh.
  const std::string dir = make_temp_dir("ip-health-calm-");
  const auto r = run_process({INFERPERF_BIN,
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
                              "400",
                              "--artifact-dir",
                              dir,
                              "--ui-type",
                              "none"},
                             120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto h = client_health_of(dir);
  EXPECT_EQ(h["measured"], true);
  EXPECT_EQ(h["requests"], 400);
  EXPECT_GE(h["events"].get<long long>(), 400 * 10);
  EXPECT_GT(h["window_s"].get<double>(), 0.2);
  ASSERT_FALSE(h["workers"].empty());
  double lag_max = 0;
  for (const auto& w : h["workers"]) {
    // One probe every 10 ms over the window (a few late ones are skipped, never doubled).
    EXPECT_GT(w["loop_lag_samples"].get<double>(), 0.5 * h["window_s"].get<double>() * 100);
    EXPECT_LE(w["loop_lag_samples"].get<double>(), h["window_s"].get<double>() * 100 + 2);
    EXPECT_LE(w["loop_lag_p50_ms"].get<double>(), w["loop_lag_p99_ms"].get<double>());
    EXPECT_LE(w["loop_lag_p99_ms"].get<double>(),
              w["loop_lag_max_ms"].get<double>() * 1.04 + 0.001);
    lag_max = std::max(lag_max, w["loop_lag_p99_ms"].get<double>());
  }
  EXPECT_DOUBLE_EQ(h["loop_lag_p99_ms_max"].get<double>(), lag_max);

  // The verdict is exactly the thresholds applied to the reported numbers (judged before they
  // were rounded to 3 decimals, so a value within 0.0005 of its threshold may go either way).
  // Lateness while the workers waited for CPUs others held is said as host contention instead of
  // a cause (on a busy CI machine either may happen).
  const auto& t = h["thresholds"];
  const bool host = h["host_contended"].get<bool>();
  EXPECT_EQ(host, !h["contention"].empty()) << h.dump(2);
  std::set<std::string> causes;
  for (const auto& c : h["causes"]) causes.insert(c.get<std::string>());
  const auto judged = [&](const char* value, const char* limit, const std::string& cause,
                          bool lateness) {
    const double v = h[value].get<double>();
    const double l = t[limit].get<double>();
    if (std::abs(v - l) <= 0.0005) return;
    EXPECT_EQ(causes.count(cause) == 1, v > l && !(lateness && host)) << cause << ": " << h.dump(2);
  };
  judged("loop_lag_p99_ms_max", "loop_lag_p99_ms", "event_loop_lag", true);
  judged("worker_cpu_percent_max", "worker_cpu_percent", "worker_cpu", false);
  judged("schedule_lag_p99_ms", "schedule_lag_p99_ms", "schedule_lag", true);
  EXPECT_EQ(r.out.find("Host: CONTENDED") != std::string::npos, host) << r.out;
  for (const auto& c : causes) {
    EXPECT_TRUE(c == "event_loop_lag" || c == "worker_cpu" || c == "schedule_lag") << c;
  }
  EXPECT_EQ(h["saturated"].get<bool>(), !causes.empty());
  EXPECT_EQ(h["warnings"].size(), causes.size());
  EXPECT_EQ(r.out.find("Client health: SATURATED") != std::string::npos, !causes.empty()) << r.out;
  EXPECT_EQ(r.out.find("client saturated:") != std::string::npos, !causes.empty()) << r.out;
  // 4 streams at ~300 requests/s use a few percent of a core even when the VM stalls it: a
  // worker_cpu verdict here would be the self-check misreading its own clock.
  EXPECT_LT(h["worker_cpu_percent_max"].get<double>(), 90.0) << h.dump(2);

  std::filesystem::remove(dir + "/profile_export_aiperf.json");
  auto again = run_process({INFERPERF_BIN, "analyze", dir}, 60s);
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(client_health_of(dir), h);
}

}  // namespace
}  // namespace inferperf::testing
