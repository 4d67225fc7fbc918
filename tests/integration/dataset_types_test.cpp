// The dataset types AIPerf 0.11 added, end to end against the mock server: a dag_jsonl file whose
// root spawns joined and background children, and a SageMaker Data Capture file replayed on its
// (sped-up) clock. Every request is sent once, none fails.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;

const std::string kData = std::string(INFERPERF_SOURCE_DIR) + "/tests/data/dataset_types/";

// conversation id -> turn index -> the record's metadata
std::map<std::string, std::map<int, json>> records_by_session(const std::string& out) {
  std::map<std::string, std::map<int, json>> by;
  std::istringstream in(read_file(out + "/profile_export.jsonl"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const json rec = json::parse(line);
    EXPECT_FALSE(rec.contains("error")) << line;
    const json& m = rec["metadata"];
    by[m["conversation_id"].get<std::string>()][m["turn_index"].get<int>()] = m;
  }
  return by;
}

TEST(DatasetTypes, DagJsonlAndSagemakerCapturesReplayAgainstTheMock) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-dstypes-");
  const std::string dag_out = dir + "/dag";
  auto dag = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--artifact-dir", dag_out,
       "--input-file", kData + "agents.dag.jsonl", "--custom-dataset-type", "dag_jsonl",
       "--streaming", "--inter-turn-delay-cap-seconds", "0.01", "--conversation-num", "1"},
      std::chrono::seconds(60));
  ASSERT_EQ(dag.exit_code, 0) << dag.out;
  EXPECT_NE(dag.out.find("capped 4 per-turn delay(s)"), std::string::npos) << dag.out;
  const auto by = records_by_session(dag_out);
  ASSERT_EQ(by.size(), 5u) << "the root and its four children";
  EXPECT_EQ(by.at("root").size(), 4u);
  EXPECT_EQ(by.at("w1").size(), 2u);
  for (const char* child : {"w2", "w3", "bg"}) EXPECT_EQ(by.at(child).size(), 1u) << child;
  auto ns = [](const json& m, const char* k) { return m[k].get<long long>(); };
  EXPECT_GE(ns(by.at("w1").at(0), "request_start_ns"), ns(by.at("root").at(0), "request_end_ns"))
      << "spawned when turn 0 returned";
  EXPECT_GE(ns(by.at("root").at(1), "request_start_ns"), ns(by.at("w1").at(1), "request_end_ns"))
      << "turn 1 joins the children of turn 0";
  EXPECT_GE(ns(by.at("root").at(3), "request_start_ns"), ns(by.at("w3").at(0), "request_end_ns"))
      << "join_at 3";
  const json dag_summary = json::parse(read_file(dag_out + "/profile_export_aiperf.json"));
  EXPECT_EQ(dag_summary["request_count"]["avg"], 9);

  const std::string cap_out = dir + "/capture";
  auto cap = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--artifact-dir", cap_out,
       "--input-file", kData + "capture.jsonl", "--streaming", "--synthesis-speedup-ratio", "100"},
      std::chrono::seconds(60));
  ASSERT_EQ(cap.exit_code, 0) << cap.out;
  EXPECT_NE(cap.out.find("sagemaker_data_capture"), std::string::npos) << cap.out;
  EXPECT_EQ(records_by_session(cap_out).size(), 3u);
  const json cap_summary = json::parse(read_file(cap_out + "/profile_export_aiperf.json"));
  EXPECT_EQ(cap_summary["request_count"]["avg"], 3);
}

TEST(DatasetTypes, UnsupportedDagForkExitsTwoNamingTheField) {
  const std::string dir = make_temp_dir("ip-dstypes-bad-");
  const std::string bad = dir + "/bad.jsonl";
  std::ofstream(bad, std::ios::binary)
      << R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "x"}], )"
      << R"("forks": ["b"]}]})"
      << "\n";
  auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", "http://127.0.0.1:9", "--artifact-dir",
       dir + "/out", "--input-file", bad, "--custom-dataset-type", "dag-jsonl"},
      std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("turns[0].forks"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace inferperf::testing
