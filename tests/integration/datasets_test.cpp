// Input-file datasets end to end: traces replayed against the mock server with the measured input
// lengths equal to the rows', prefix sharing visible in inputs.json, timed traces on a fixed
// schedule, the workload check, and bad files refused (exit 2) before anything is written.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string p = dir + "/" + name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::vector<std::string> profile(const MockServerProcess& mock, const std::string& out,
                                 const std::string& input, std::vector<std::string> extra) {
  std::vector<std::string> a = {INFERPERF_BIN, "profile",        "-m", "mock-model",   "-u",
                                mock.url(),    "--artifact-dir", out,  "--input-file", input,
                                "--streaming"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::string first_content(const json& payload) {
  return payload["messages"][0]["content"].get<std::string>();
}

TEST(Datasets, MooncakeReplayMeasuresTheRowsInputLengthsAndSharesPrefixes) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ds-mooncake-");
  const std::string trace =
      write_file(dir, "trace.jsonl",
                 "{\"input_length\": 1100, \"output_length\": 6, \"hash_ids\": [7, 8, 9]}\n"
                 "{\"input_length\": 1300, \"output_length\": 6, \"hash_ids\": [7, 8, 10]}\n"
                 "{\"input_length\": 600, \"output_length\": 6, \"hash_ids\": [7]}\n"
                 "{\"input_length\": 200, \"output_length\": 6}\n");
  const std::string out = dir + "/out";
  // The builtin tokenizer counts on the client: every ISL must be the row's input_length.
  auto r = run_process(profile(mock, out, trace,
                               {"--custom-dataset-type", "mooncake_trace", "--concurrency", "2",
                                "--request-count", "4", "--dataset-sampling-strategy", "sequential",
                                "--extra-inputs", "ignore_eos:true"}),
                       std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json inputs = json::parse(read_file(out + "/inputs.json"));
  ASSERT_EQ(inputs["data"].size(), 4u);
  const std::string a = first_content(inputs["data"][0]["payloads"][0]);
  const std::string b = first_content(inputs["data"][1]["payloads"][0]);
  const std::string c = first_content(inputs["data"][2]["payloads"][0]);
  std::size_t common = 0;
  while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  EXPECT_GT(common, c.size() / 2 * 3) << "blocks 7 and 8 are shared";  // two of ~1100 tokens
  EXPECT_EQ(c.substr(0, 1000), a.substr(0, 1000));                     // block 7 starts both
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["max_completion_tokens"], 6);
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["ignore_eos"], true);

  std::map<std::string, int> isl_by_conversation;
  for (const auto& rec : read_jsonl(out + "/profile_export.jsonl")) {
    isl_by_conversation[rec["metadata"]["conversation_id"]] =
        rec["metrics"]["input_sequence_length"]["value"].get<int>();
  }
  ASSERT_EQ(isl_by_conversation.size(), 4u);
  const int expected[] = {1100, 1300, 600, 200};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(isl_by_conversation[inputs["data"][i]["session_id"]], expected[i]) << "row " << i;
  }
  const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
  ASSERT_TRUE(summary.contains("workload_check")) << summary.dump(1);
  EXPECT_EQ(summary["workload_check"]["ok"], true) << summary["workload_check"].dump(1);
  EXPECT_DOUBLE_EQ(summary["workload_check"]["isl"]["expected_avg"].get<double>(), 800.0);
  EXPECT_DOUBLE_EQ(summary["workload_check"]["isl"]["measured_avg"].get<double>(), 800.0);
  EXPECT_EQ(r.out.find("Workload Check Warning"), std::string::npos) << r.out;
}

TEST(Datasets, WorkloadCheckWarnsWhenTheServerStopsEarly) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ds-check-");
  const std::string trace = write_file(dir, "trace.jsonl",
                                       "{\"input_length\": 40, \"output_length\": 64}\n"
                                       "{\"input_length\": 60, \"output_length\": 64}\n");
  // --extra-inputs overrides the rows' max tokens: a clean run of the wrong workload. The default
  // export level reads the records back from disk for the check; --export-level raw keeps them in
  // memory (the raw exchanges are not in the records file): both paths give the same check.
  for (const std::string level : {"records", "raw"}) {
    SCOPED_TRACE(level);
    const std::string out = dir + "/out-" + level;
    auto r =
        run_process(profile(mock, out, trace,
                            {"--use-server-token-count", "--request-count", "2", "--extra-inputs",
                             "max_completion_tokens:4", "--export-level", level}),
                    std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("Workload Check Warning"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("OSL avg: expected 64, measured 4 (-93.8 %)"), std::string::npos) << r.out;
    const json check =
        json::parse(read_file(out + "/profile_export_aiperf.json"))["workload_check"];
    EXPECT_EQ(check["ok"], false);
    EXPECT_EQ(check["osl"]["ok"], false);
    EXPECT_NE(check["likely_causes"][0].get<std::string>().find("ignore_eos"), std::string::npos);
  }
}

TEST(Datasets, TimedTraceReplaysOnItsClockUnlessToldNot) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ds-timed-");
  const std::string trace =
      write_file(dir, "trace.jsonl",
                 "{\"timestamp\": 0, \"input_length\": 20, \"output_length\": 2}\n"
                 "{\"timestamp\": 300, \"input_length\": 20, \"output_length\": 2}\n"
                 "{\"timestamp\": 600, \"input_length\": 20, \"output_length\": 2}\n");
  const std::string out = dir + "/out";
  auto r = run_process(profile(mock, out, trace, {"--use-server-token-count"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("replaying them on a fixed schedule"), std::string::npos) << r.out;
  const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
  EXPECT_EQ(summary["input_config"]["phases"].back()["type"], "fixed_schedule");
  EXPECT_EQ(summary["request_count"]["avg"], 3);
  // The third request is sent 600 ms after the first (loose bound: sanitizer builds are slow).
  std::vector<long long> starts;
  for (const auto& rec : read_jsonl(out + "/profile_export.jsonl"))
    starts.push_back(rec["metadata"]["request_start_ns"].get<long long>());
  std::sort(starts.begin(), starts.end());
  ASSERT_EQ(starts.size(), 3u);
  EXPECT_GE(starts[2] - starts[0], 550'000'000LL);

  const std::string out2 = dir + "/out2";
  auto closed = run_process(
      profile(mock, out2, trace,
              {"--use-server-token-count", "--no-fixed-schedule", "--request-count", "3"}),
      std::chrono::seconds(60));
  ASSERT_EQ(closed.exit_code, 0) << closed.out;
  const json s2 = json::parse(read_file(out2 + "/profile_export_aiperf.json"));
  EXPECT_EQ(s2["input_config"]["phases"].back()["type"], "concurrency");
}

TEST(Datasets, OtherFormatsReplay) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ds-formats-");
  struct Case {
    std::string name, type, content;
    int requests;
  };
  const std::vector<Case> cases = {
      {"bailian.jsonl", "bailian_trace",
       "{\"chat_id\": 1, \"parent_chat_id\": -1, \"timestamp\": 0.0, \"input_length\": 32, "
       "\"output_length\": 3, \"type\": \"text\", \"turn\": 1, \"hash_ids\": [1, 2]}\n"
       "{\"chat_id\": 2, \"parent_chat_id\": 1, \"timestamp\": 0.1, \"input_length\": 48, "
       "\"output_length\": 3, \"type\": \"text\", \"turn\": 2, \"hash_ids\": [1, 2, 3]}\n",
       2},
      {"burst.csv", "burst_gpt_trace",
       "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
       "0.0,ChatGPT,30,3,33,Conversation log\n0.05,ChatGPT,20,2,22,Conversation log\n",
       2},
      {"raw.jsonl", "raw_payload",
       "{\"model\": \"mock-model\", \"messages\": [{\"role\": \"user\", \"content\": \"hello "
       "there\"}], \"max_tokens\": 3, \"stream\": true}\n",
       1},
  };
  for (const auto& c : cases) {
    const std::string input = write_file(dir, c.name, c.content);
    const std::string out = dir + "/out-" + c.type;
    auto r = run_process(profile(mock, out, input,
                                 {"--use-server-token-count", "--custom-dataset-type", c.type,
                                  "--request-count", std::to_string(c.requests)}),
                         std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << c.type << "\n" << r.out;
    const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
    EXPECT_EQ(summary["request_count"]["avg"], c.requests) << c.type;
    EXPECT_EQ(summary["error_summary"].size(), 0u) << c.type << summary["error_summary"].dump();
    // Replaying the run's own inputs.json sends the same bodies again.
    const std::string again = dir + "/again-" + c.type;
    auto replay = run_process(
        profile(mock, again, out + "/inputs.json",
                {"--use-server-token-count", "--request-count", std::to_string(c.requests)}),
        std::chrono::seconds(60));
    ASSERT_EQ(replay.exit_code, 0) << replay.out;
    EXPECT_EQ(json::parse(read_file(again + "/inputs.json"))["data"].size(),
              json::parse(read_file(out + "/inputs.json"))["data"].size());
  }
}

TEST(Datasets, SingleTurnImagesAreSentAsContentParts) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ds-media-");
  // A real 1x1 PNG: the mock decodes every picture it receives and refuses one that does not.
  const char kPng[] =
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01"
      "\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41"
      "\x54\x78\xda\x63\x64\x60\xf8\x5f\x0f\x00\x02\x87\x01\x80\xeb\x47\xba\x92\x00\x00"
      "\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";
  write_file(dir, "cat.png", std::string(kPng, sizeof kPng - 1));
  const std::string input = write_file(
      dir, "rows.jsonl",
      "{\"text\": \"Describe the image.\", \"image\": \"cat.png\", \"output_length\": 3}\n");
  const std::string out = dir + "/out";
  auto r =
      run_process(profile(mock, out, input, {"--use-server-token-count", "--request-count", "1"}),
                  std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
  EXPECT_EQ(summary["request_count"]["avg"], 1);
  const json content = json::parse(
      read_file(out + "/inputs.json"))["data"][0]["payloads"][0]["messages"][0]["content"];
  ASSERT_EQ(content.size(), 2u) << content.dump();
  EXPECT_EQ(content[0]["text"], "Describe the image.");
  EXPECT_EQ(content[1]["type"], "image_url");
  EXPECT_EQ(content[1]["image_url"]["url"],
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPh"
            "fDwAChwGA60e6kgAAAABJRU5ErkJggg==");
  // Completions cannot carry images: refused before anything is sent.
  auto completions = run_process(profile(mock, dir + "/out2", input,
                                         {"--use-server-token-count", "--endpoint-type",
                                          "completions", "--request-count", "1"}),
                                 std::chrono::seconds(30));
  EXPECT_EQ(completions.exit_code, 2) << completions.out;
  EXPECT_NE(completions.out.find("--endpoint-type completions does not send"), std::string::npos)
      << completions.out;
}

TEST(Datasets, BadFilesExitTwoBeforeAnythingIsWritten) {
  const std::string dir = make_temp_dir("ip-ds-bad-");
  struct Case {
    std::string content, expected;
  };
  const std::vector<Case> cases = {
      {"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 1351695\n",
       "trace.jsonl:1: is a Git LFS pointer"},
      {"{\"input_length\": 10}\n{\"input_length\": 10,}\n",
       "trace.jsonl:2: invalid JSON at column 21"},
      {"{\"input_length\": \"ten\"}\n",
       "trace.jsonl:1: field 'input_length': must be an integer, got a string"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string input = write_file(dir, "trace.jsonl", cases[i].content);
    const std::string out = dir + "/out" + std::to_string(i);
    // No server: a bad file is refused before anything is sent (or any folder made).
    auto r = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", "http://127.0.0.1:9",
                          "--artifact-dir", out, "--input-file", input, "--use-server-token-count"},
                         std::chrono::seconds(30));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find(cases[i].expected), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(out)) << "case " << i;
  }
}

}  // namespace
}  // namespace inferperf::testing
