// --export-level raw against the mock server: profile_export_raw.jsonl holds every profiling
// request as sent and received, with the secret header redacted.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;

std::vector<json> lines_of(const std::string& path) {
  std::vector<json> out;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

ProcessResult profile_raw(const MockServerProcess& mock, const std::string& dir,
                          std::vector<std::string> extra) {
  auto args = mock_profile_args(
      INFERPERF_BIN, mock, dir,
      {"--export-level", "raw", "-H", "Authorization:Bearer secret123", "--random-seed", "3"});
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(args, std::chrono::seconds(90));
}

// Checks shared by both runs; returns the raw lines.
std::vector<json> check_raw_export(const std::string& dir, const ProcessResult& r,
                                   std::size_t expected) {
  const std::string path = dir + "/profile_export_raw.jsonl";
  EXPECT_NE(r.out.find("Raw Export: " + path), std::string::npos) << r.out;
  const std::string text = read_file(path);
  EXPECT_EQ(text.find("secret123"), std::string::npos) << "the API key leaked";
  const std::vector<json> raw = lines_of(path);
  const std::vector<json> recs = lines_of(dir + "/profile_export.jsonl");
  EXPECT_EQ(raw.size(), expected);
  EXPECT_EQ(recs.size(), expected);

  std::map<std::string, json> first_payloads;  // conversation id -> first turn's body
  const json inputs = json::parse(read_file(dir + "/inputs.json"));
  for (const auto& d : inputs["data"]) {
    first_payloads[d["session_id"]] = d["payloads"][0];
  }
  for (std::size_t i = 0; i < raw.size() && i < recs.size(); ++i) {
    const json& line = raw[i];
    EXPECT_EQ(line["metadata"], recs[i]["metadata"]) << "same metadata, same order: " << i;
    EXPECT_EQ(line["metadata"]["benchmark_phase"], "profiling");
    EXPECT_EQ(line["status"], 200) << line.dump();
    EXPECT_FALSE(line.contains("error")) << line.dump();
    EXPECT_EQ(line["request_headers"]["Authorization"], "<redacted>");
    EXPECT_EQ(line["request_headers"]["X-Request-ID"], line["metadata"]["x_request_id"]);
    EXPECT_TRUE(line["response_headers"].contains("Content-Type") ||
                line["response_headers"].contains("content-type"))
        << line["response_headers"].dump();
    EXPECT_TRUE(line["payload"].is_object());
    if (line["metadata"]["turn_index"] == 0) {
      EXPECT_EQ(line["payload"], first_payloads.at(line["metadata"]["conversation_id"]));
    }
    const json& responses = line["responses"];
    EXPECT_FALSE(responses.empty());
    std::int64_t previous = line["start_perf_ns"].get<std::int64_t>();
    for (const auto& resp : responses) {
      const auto t = resp["perf_ns"].get<std::int64_t>();
      EXPECT_GE(t, previous) << "perf_ns never goes back";
      previous = t;
    }
  }
  return raw;
}

TEST(RawExport, StreamingMultiTurnRun) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-raw-stream-");
  auto r = profile_raw(mock, dir,
                       {"--streaming", "--concurrency", "2", "--num-sessions", "3",
                        "--conversation-turn-mean", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto raw = check_raw_export(dir, r, 6);
  int later_turns = 0;
  for (const auto& line : raw) {
    later_turns += line["metadata"]["turn_index"].get<int>() > 0;
    EXPECT_EQ(line["payload"]["stream"], true);
    const json& responses = line["responses"];
    ASSERT_GE(responses.size(), 2u);
    std::vector<std::string> data;
    for (const auto& resp : responses) {
      EXPECT_FALSE(resp.contains("text"));
      for (const auto& p : resp["packets"]) {
        if (p["name"] == "data") data.push_back(p["value"]);
      }
    }
    ASSERT_FALSE(data.empty());
    EXPECT_EQ(data.back(), "[DONE]");
    EXPECT_TRUE(json::parse(data.front()).is_object()) << data.front();
  }
  EXPECT_EQ(later_turns, 3);
}

TEST(RawExport, NonStreamingRunExcludesWarmup) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-raw-plain-");
  auto r = profile_raw(
      mock, dir, {"--concurrency", "2", "--request-count", "5", "--warmup-request-count", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 7);
  const auto raw = check_raw_export(dir, r, 5);
  for (const auto& line : raw) {
    ASSERT_EQ(line["responses"].size(), 1u) << line.dump();
    const json& resp = line["responses"][0];
    EXPECT_FALSE(resp.contains("packets"));
    EXPECT_EQ(resp["content_type"].get<std::string>().rfind("application/json", 0), 0u);
    EXPECT_EQ(json::parse(resp["text"].get<std::string>())["object"], "chat.completion");
  }
}

TEST(RawExport, RecordsLevelWritesNoRawFile) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-raw-none-");
  auto r = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--isl",
                        "16", "--request-count", "2", "--artifact-dir", dir},
                       std::chrono::seconds(90));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/profile_export_raw.jsonl"));
  EXPECT_EQ(r.out.find("Raw Export:"), std::string::npos);
}

}  // namespace
}  // namespace inferperf::testing
