// Scale out end to end: three shards of one benchmark against one mock server, started together
// with --start-at, then `inferperf merge`. The merged reports are checked against what the shards'
// own per-request exports say (the union of the records), and against a one-process run of the
// same command for their shape and configuration echo.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json summary(const std::string& dir) {
  return json::parse(read_file(dir + "/profile_export_aiperf.json"));
}

std::string start_in(double seconds) {
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  return std::to_string(now + seconds);
}

// Runs the shards at once (they wait for the common --start-at) and returns their exit codes.
std::vector<int> run_shards(const std::vector<std::string>& base, int count,
                            const std::string& log_dir) {
  const std::string start_at = start_in(1.5);
  std::vector<std::unique_ptr<BackgroundProcess>> shards;
  for (int i = 0; i < count; ++i) {
    std::vector<std::string> args = base;
    args.insert(args.end(), {"--shard-count", std::to_string(count), "--shard-index",
                             std::to_string(i), "--start-at", start_at});
    shards.push_back(std::make_unique<BackgroundProcess>(
        args, log_dir + "/shard-" + std::to_string(i) + ".log"));
  }
  std::vector<int> codes;
  for (auto& s : shards) codes.push_back(s->wait(std::chrono::milliseconds(120'000)));
  return codes;
}

void expect_same_keys(const json& a, const json& b, const std::string& path) {
  if (!a.is_object() || !b.is_object()) return;
  for (const auto& [k, v] : a.items()) {
    ASSERT_TRUE(b.contains(k)) << path << "." << k << " missing";
    expect_same_keys(v, b.at(k), path + "." + k);
  }
  for (const auto& [k, v] : b.items()) EXPECT_TRUE(a.contains(k)) << path << "." << k << " extra";
}

json without_identity(json config) {
  if (config.contains("artifacts")) config["artifacts"].erase("dir");
  if (config.contains("inferperf")) config["inferperf"].erase("artifact_directory");
  return config;
}

TEST(ScaleOut, ThreeShardsMergeIntoTheReportsOfTheirPooledRecords) {
  MockServerProcess mock({"--ttft", "4", "--itl", "1", "--tokens-per-event", "2"});
  const std::string dir = make_temp_dir("ip-shards-");
  const std::vector<std::string> base = {
      INFERPERF_BIN, "profile",         "-m",        "mock-model",    "-u", mock.url(),
      "--streaming", "--isl",           "24",        "--osl",         "12", "--concurrency",
      "6",           "--request-count", "60",        "--random-seed", "11", "--ui-type",
      "none",        "--artifact-dir",  dir + "/run"};
  const auto codes = run_shards(base, 3, dir);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(codes[i], 0) << read_file(dir + "/shard-" + std::to_string(i) + ".log");
  }
  // Closed loop: the request count splits 20/20/20, the concurrency 2/2/2.
  std::vector<json> pooled;
  std::set<std::string> conversations_of[3];
  for (int i = 0; i < 3; ++i) {
    const std::string shard = dir + "/run/shard-" + std::to_string(i);
    const auto recs = read_jsonl(shard + "/profile_export.jsonl");
    EXPECT_EQ(recs.size(), 20u) << "shard " << i;
    EXPECT_EQ(summary(shard)["request_count"]["avg"], 20);
    for (const auto& r : recs) {
      conversations_of[i].insert(r["metadata"]["conversation_id"].get<std::string>());
      pooled.push_back(r);
    }
  }
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      for (const auto& c : conversations_of[i])
        EXPECT_FALSE(conversations_of[j].count(c)) << c << " was sent by shards " << i << ", " << j;

  const std::string merged = dir + "/merged";
  auto m = run_process({INFERPERF_BIN, "merge", dir + "/run", "--artifact-dir", merged},
                       std::chrono::seconds(60));
  ASSERT_EQ(m.exit_code, 0) << m.out;
  EXPECT_NE(m.out.find("merge: 3 shards, 60 record(s)"), std::string::npos) << m.out;
  const json s = summary(merged);
  EXPECT_EQ(s["request_count"]["avg"], 60) << "the sum of the shards'";

  // The merged metrics are those of the union of the shards' records.
  std::vector<double> latency;
  std::int64_t first_start = INT64_MAX, last_end = 0;
  double output_tokens = 0;
  for (const auto& r : pooled) {
    latency.push_back(r["metrics"]["request_latency"]["value"].get<double>());
    output_tokens += r["metrics"]["output_sequence_length"]["value"].get<double>();
    first_start = std::min(first_start, r["metadata"]["request_start_ns"].get<std::int64_t>());
    last_end = std::max(last_end, r["metadata"]["request_end_ns"].get<std::int64_t>());
  }
  std::sort(latency.begin(), latency.end());
  const double mean = std::accumulate(latency.begin(), latency.end(), 0.0) / latency.size();
  EXPECT_NEAR(s["request_latency"]["avg"].get<double>(), mean, 1e-6 * mean);
  EXPECT_DOUBLE_EQ(s["request_latency"]["min"].get<double>(), latency.front());
  EXPECT_DOUBLE_EQ(s["request_latency"]["max"].get<double>(), latency.back());
  // The metrics' window ends at the last response byte; request_end_ns is stamped a little later
  // (0.4 ms of a 380 ms window under ASan), so 1 %: a window summed over the three shards would be
  // off threefold.
  const double window_s = static_cast<double>(last_end - first_start) / 1e9;
  EXPECT_NEAR(s["request_throughput"]["avg"].get<double>(), 60 / window_s, 1e-2 * 60 / window_s)
      << "the window runs from the first send of any shard to the last response of any";
  EXPECT_NEAR(s["output_token_throughput"]["avg"].get<double>(), output_tokens / window_s,
              1e-2 * output_tokens / window_s);

  // One client's numbering: every request once, session_num 0..59 in order of issue.
  const auto merged_recs = read_jsonl(merged + "/profile_export.jsonl");
  ASSERT_EQ(merged_recs.size(), 60u);
  std::set<std::string> ids;
  std::vector<std::pair<std::int64_t, std::int64_t>> issued;  // (issued ns, session_num)
  for (const auto& r : merged_recs) {
    ids.insert(r["metadata"]["x_request_id"].get<std::string>());
    issued.emplace_back(r["metadata"]["credit_issued_ns"].get<std::int64_t>(),
                        r["metadata"]["session_num"].get<std::int64_t>());
  }
  EXPECT_EQ(ids.size(), 60u);
  std::sort(issued.begin(), issued.end());
  for (std::size_t n = 0; n < issued.size(); ++n) EXPECT_EQ(issued[n].second, n);

  // `analyze` on the merged folder reproduces its reports: it is an ordinary artifact folder.
  const std::string before = read_file(merged + "/profile_export_aiperf.json");
  fs::remove(merged + "/profile_export_aiperf.json");
  auto a = run_process({INFERPERF_BIN, "analyze", merged}, std::chrono::seconds(60));
  ASSERT_EQ(a.exit_code, 0) << a.out;
  EXPECT_EQ(read_file(merged + "/profile_export_aiperf.json"), before);

  // A one-process run of the same command: the same report shape and configuration echo; only
  // benchmark_id and cli_command (and the folder) differ.
  std::vector<std::string> one = base;
  one.back() = dir + "/one";
  auto single = run_process(one, std::chrono::seconds(90));
  ASSERT_EQ(single.exit_code, 0) << single.out;
  const json o = summary(dir + "/one");
  // The mock's prefix cache is warm by the time the one-process run starts, so only that run's
  // answers carry cached prompt tokens (usage_prompt_cache_read_* appear only when sent).
  auto without_cache_reads = [](json j) {
    for (const char* k : {"usage_prompt_cache_read_tokens", "total_usage_prompt_cache_read_tokens",
                          "overall_usage_prompt_cache_read_pct"})
      j.erase(k);
    return j;
  };
  expect_same_keys(without_cache_reads(s), without_cache_reads(o), "");
  EXPECT_EQ(without_identity(s["input_config"]), without_identity(o["input_config"]));
  EXPECT_EQ(s["input_config"]["phases"].back()["concurrency"], 6) << "the whole benchmark's load";
  EXPECT_EQ(s["input_config"]["inferperf"]["artifact_directory"], fs::absolute(merged).string());
  EXPECT_EQ(s["run_info"]["benchmark_id"], s["benchmark_id"]);
}

TEST(ScaleOut, TraceReplaySplitKeepsEverySessionOnOneShard) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-shard-trace-");
  std::ofstream trace(dir + "/trace.jsonl");
  for (int s = 0; s < 12; ++s) {
    trace << "{\"session_id\": \"user-" << s << "\", \"timestamp\": " << s * 20
          << ", \"input_length\": 40, \"output_length\": 4}\n";
    for (int t = 1; t < 3; ++t)
      trace << "{\"session_id\": \"user-" << s
            << "\", \"delay\": 5, \"input_length\": 20, \"output_length\": 4}\n";
  }
  trace.close();
  const std::vector<std::string> base = {INFERPERF_BIN,
                                         "profile",
                                         "-m",
                                         "mock-model",
                                         "-u",
                                         mock.url(),
                                         "--input-file",
                                         dir + "/trace.jsonl",
                                         "--custom-dataset-type",
                                         "mooncake_trace",
                                         "--fixed-schedule",
                                         "--random-seed",
                                         "5",
                                         "--ui-type",
                                         "none",
                                         "--artifact-dir",
                                         dir + "/run"};
  const auto codes = run_shards(base, 3, dir);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(codes[i], 0) << read_file(dir + "/shard-" + std::to_string(i) + ".log");
  std::map<std::string, std::set<int>> shards_of;
  std::map<std::string, int> turns_of;
  std::size_t total = 0;
  for (int i = 0; i < 3; ++i) {
    for (const auto& r :
         read_jsonl(dir + "/run/shard-" + std::to_string(i) + "/profile_export.jsonl")) {
      const std::string conv = r["metadata"]["conversation_id"].get<std::string>();
      shards_of[conv].insert(i);
      ++turns_of[conv];
      ++total;
    }
  }
  EXPECT_EQ(total, 36u) << "every turn of every session, once";
  ASSERT_EQ(shards_of.size(), 12u);
  for (const auto& [conv, shards] : shards_of) {
    EXPECT_EQ(shards.size(), 1u) << conv << " spans shards";
    EXPECT_EQ(turns_of[conv], 3) << conv;
  }
  auto m = run_process({INFERPERF_BIN, "merge", dir + "/run/shard-0", dir + "/run/shard-1",
                        dir + "/run/shard-2", "--artifact-dir", dir + "/merged"},
                       std::chrono::seconds(60));
  ASSERT_EQ(m.exit_code, 0) << m.out;
  EXPECT_EQ(summary(dir + "/merged")["request_count"]["avg"], 36);
}

TEST(ScaleOut, MergeRefusesAMissingShardAndMismatchedConfigurations) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-shard-bad-");
  auto shard = [&](int index, const std::string& concurrency) {
    return run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--concurrency",
                        concurrency,
                        "--request-count",
                        "4",
                        "--random-seed",
                        "3",
                        "--shard-count",
                        "2",
                        "--shard-index",
                        std::to_string(index),
                        "--ui-type",
                        "none",
                        "--artifact-dir",
                        dir + "/run-" + concurrency},
                       std::chrono::seconds(60));
  };
  ASSERT_EQ(shard(0, "2").exit_code, 0);
  auto missing = run_process({INFERPERF_BIN, "merge", dir + "/run-2", "--artifact-dir", dir + "/m"},
                             std::chrono::seconds(30));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.out.find("shard(s) 1 of 2 missing"), std::string::npos) << missing.out;
  EXPECT_FALSE(fs::exists(dir + "/m")) << "nothing is written for a refused merge";
  ASSERT_EQ(shard(1, "4").exit_code, 0);
  auto differ = run_process({INFERPERF_BIN, "merge", dir + "/run-2/shard-0", dir + "/run-4/shard-1",
                             "--artifact-dir", dir + "/m"},
                            std::chrono::seconds(30));
  EXPECT_EQ(differ.exit_code, 2);
  EXPECT_NE(differ.out.find("configuration differs from shard 0's"), std::string::npos)
      << differ.out;
  EXPECT_NE(differ.out.find("concurrency"), std::string::npos) << differ.out;
  // Without --random-seed the shards would build different datasets: refused up front.
  auto no_seed = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(),
                              "--shard-count", "2", "--dry-run"},
                             std::chrono::seconds(30));
  EXPECT_EQ(no_seed.exit_code, 2);
  EXPECT_NE(no_seed.out.find("the same --random-seed"), std::string::npos) << no_seed.out;
}

TEST(ScaleOut, TheShardComesFromAnIndexedJobsEnvironment) {
  const std::string dir = make_temp_dir("ip-shard-env-");
  auto r = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", "http://127.0.0.1:9",
                        "--request-rate", "30", "--arrival-pattern", "constant", "--request-count",
                        "30", "--random-seed", "1", "--artifact-dir", dir, "--dry-run"},
                       std::chrono::seconds(30), "",
                       {"JOB_COMPLETION_INDEX=2", "INFERPERF_SHARD_COUNT=3"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("shard 2 of 3: 1 of every 3 arrivals"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("artifact folder: " + dir + "/shard-2"), std::string::npos) << r.out;
  auto bad = run_process({INFERPERF_BIN, "profile", "-m", "m", "-u", "http://127.0.0.1:9",
                          "--random-seed", "1", "--dry-run"},
                         std::chrono::seconds(30), "",
                         {"JOB_COMPLETION_INDEX=5", "INFERPERF_SHARD_COUNT=3"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.out.find("--shard-index must be between 0 and --shard-count - 1 = 2 (got 5)"),
            std::string::npos)
      << bad.out;
}

}  // namespace
}  // namespace inferperf::testing
