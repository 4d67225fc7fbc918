// weka_trace end to end: a trace with one joined subagent replayed against the mock server. Every
// request is sent, the subagent runs as its own session, and the parent's join turn starts only
// after the subagent's last request has ended.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;

// The subagent's recorded duration (10 ms) places the join on the parent's turn at 0.1 s, but its
// second request was recorded at 0.4 s: without the join the parent's turn would go out first.
constexpr const char* kTrace = R"({"id": "agent-run", "block_size": 4, "hash_id_scope": "local",
 "requests": [
  {"t": 0.0, "type": "s", "model": "big", "in": 12, "out": 4, "hash_ids": [1, 2, 3]},
  {"t": 0.01, "type": "subagent", "agent_id": "a1", "duration_ms": 10, "status": "completed",
   "requests": [
     {"t": 0.02, "type": "n", "model": "small", "in": 8, "out": 3, "hash_ids": [10, 11]},
     {"t": 0.4, "type": "n", "model": "small", "in": 12, "out": 3, "hash_ids": [10, 11, 12]}]},
  {"t": 0.1, "type": "s", "model": "big", "in": 20, "out": 4, "hash_ids": [1, 2, 3, 4, 5]}]})";

TEST(WekaTrace, JoinedSubagentFinishesBeforeTheParentsJoinTurn) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-weka-");
  const std::string trace = dir + "/trace.json";
  std::ofstream(trace, std::ios::binary) << kTrace;
  const std::string out = dir + "/out";
  auto r = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(),
                        "--artifact-dir", out, "--input-file", trace, "--custom-dataset-type",
                        "weka_trace", "--streaming", "--use-server-token-count"},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::map<std::pair<std::string, int>, json> by_turn;
  std::istringstream in(read_file(out + "/profile_export.jsonl"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const json rec = json::parse(line);
    const json& m = rec["metadata"];
    EXPECT_FALSE(rec.contains("error")) << line;
    by_turn[{m["conversation_id"].get<std::string>(), m["turn_index"].get<int>()}] = m;
  }
  ASSERT_EQ(by_turn.size(), 4u) << "every request of the root and the subagent is sent";
  const json& p0 = by_turn.at({"agent-run", 0});
  const json& p1 = by_turn.at({"agent-run", 1});
  const json& c0 = by_turn.at({"agent-run::sa:a1", 0});
  const json& c1 = by_turn.at({"agent-run::sa:a1", 1});
  EXPECT_EQ(p0["x_correlation_id"], p1["x_correlation_id"]);
  EXPECT_EQ(c0["x_correlation_id"], c1["x_correlation_id"]);
  EXPECT_NE(p0["x_correlation_id"], c0["x_correlation_id"]) << "the subagent is its own session";
  EXPECT_EQ(p0["agent_depth"], 0);
  EXPECT_EQ(c1["agent_depth"], 1) << "AIPerf 0.11: one below the session that started it";
  auto ns = [](const json& m, const char* k) { return m[k].get<long long>(); };
  EXPECT_GE(ns(c0, "request_start_ns"), ns(p0, "request_end_ns")) << "spawned on turn 0's return";
  EXPECT_GE(ns(p1, "request_start_ns"), ns(c1, "request_end_ns"))
      << "the join turn waits for the subagent's last request";
  // The child's second request follows its recorded gap (0.38 s; loose bound for slow builds).
  EXPECT_GE(ns(c1, "request_start_ns") - ns(c0, "request_start_ns"), 300'000'000LL);
  const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
  EXPECT_EQ(summary["request_count"]["avg"], 4);
}

}  // namespace
}  // namespace inferperf::testing
