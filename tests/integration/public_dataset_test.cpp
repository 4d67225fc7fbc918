// --public-dataset end to end: sharegpt from a cached file replayed against the mock server
// (prompts and max tokens in inputs.json), the download from a Hub-compatible server (the mock's
// --hub-dir through HF_ENDPOINT) into AIPerf's cache folder, and the offline and failed-download
// errors that say where to put the file, before any artifact folder exists; spec_al_mtbench from
// a Hugging Face cache tree (HF_HUB_CACHE) as multi-turn sessions; refusals by name.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kFile = "ShareGPT_V3_unfiltered_cleaned_split.json";
constexpr const char* kCache = ".cache/aiperf/datasets";

// Token counts are for the builtin tokenizer (o200k): one token per word here.
json fixture() {
  auto msg = [](const char* from, const char* value) {
    return json{{"from", from}, {"value", value}};
  };
  json a = json::array();
  a.push_back({{"id", "sg-1"},
               {"conversations",
                {msg("human", "name a fruit for me"), msg("gpt", "an apple is a common fruit")}}});
  a.push_back({{"id", "sg-2"},
               {"conversations",
                {msg("human", "tell me about the sea"), msg("gpt", "it is large and deep and blue"),
                 msg("human", "and the sky above it"), msg("gpt", "it is blue too")}}});
  // Prompt under 4 tokens: dropped by the filter.
  a.push_back(
      {{"id", "sg-3"}, {"conversations", {msg("human", "hi there"), msg("gpt", "hello to you")}}});
  a.push_back(
      {{"id", "sg-4"},
       {"conversations",
        {msg("human", "what is a lime exactly"), msg("gpt", "a small green citrus fruit")}}});
  return a;
}

struct Want {
  std::string session;
  std::vector<std::pair<std::string, int>> turns;
};
const std::vector<Want> kWant = {
    {"sg-1", {{"name a fruit for me", 6}}},
    {"sg-2", {{"tell me about the sea", 7}, {"and the sky above it", 4}}},
    {"sg-4", {{"what is a lime exactly", 5}}},
};

void write_fixture(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << fixture().dump(1);
}

std::vector<std::string> profile(const MockServerProcess& mock, const std::string& out,
                                 std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {
      INFERPERF_BIN, "profile",        "-m", "mock-model",       "-u",
      mock.url(),    "--artifact-dir", out,  "--public-dataset", "sharegpt",
      "--streaming", "--num-sessions", "3",  "--concurrency",    "1"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

void expect_replayed(const std::string& out, const std::string& log) {
  const json inputs = json::parse(read_file(out + "/inputs.json"));
  ASSERT_EQ(inputs["data"].size(), kWant.size()) << inputs.dump(1);
  for (std::size_t i = 0; i < kWant.size(); ++i) {
    const json& conv = inputs["data"][i];
    EXPECT_EQ(conv["session_id"], kWant[i].session);
    ASSERT_EQ(conv["payloads"].size(), kWant[i].turns.size()) << conv.dump(1);
    for (std::size_t k = 0; k < kWant[i].turns.size(); ++k) {
      const json& p = conv["payloads"][k];
      EXPECT_EQ(p["messages"].back()["content"], kWant[i].turns[k].first) << p.dump();
      EXPECT_EQ(p["max_completion_tokens"], kWant[i].turns[k].second) << p.dump();
    }
  }
  const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
  EXPECT_EQ(summary["request_count"]["avg"], 4) << "3 sessions, 4 turns";
  EXPECT_EQ(summary["input_config"]["datasets"][0]["type"], "public");
  EXPECT_EQ(summary["input_config"]["datasets"][0]["dataset"], "sharegpt");
  EXPECT_NE(log.find("4 entries read, 1 skipped (0 without a usable human/gpt pair, 1 outside "
                     "the token limits), 3 kept with 4 turns"),
            std::string::npos)
      << log;
}

TEST(PublicDataset, CachedShareGptIsReplayedSequentially) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sharegpt-cache-");
  write_fixture(fs::path(dir) / kCache / kFile);
  const std::string out = dir + "/out";
  // Offline: the cache in the working directory must answer.
  auto r = run_process(profile(mock, out), std::chrono::seconds(120), dir,
                       {"HF_HUB_OFFLINE=1", "INFERPERF_DATASET_CACHE="});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("(cache)"), std::string::npos) << r.out;
  expect_replayed(out, r.out);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 4);
}

TEST(PublicDataset, InputFileAndDatasetCacheVariableAreSources) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sharegpt-src-");
  write_fixture(fs::path(dir) / "mine.json");
  auto r =
      run_process(profile(mock, dir + "/out1", {"--input-file", dir + "/mine.json"}),
                  std::chrono::seconds(120), dir, {"HF_HUB_OFFLINE=1", "INFERPERF_DATASET_CACHE="});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("(--input-file)"), std::string::npos) << r.out;
  expect_replayed(dir + "/out1", r.out);

  write_fixture(fs::path(dir) / "shared-cache" / kFile);
  r = run_process(profile(mock, dir + "/out2"), std::chrono::seconds(120), dir,
                  {"HF_HUB_OFFLINE=1", "INFERPERF_DATASET_CACHE=" + dir + "/shared-cache"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(dir + "/shared-cache/" + kFile + " (cache)"), std::string::npos) << r.out;
  expect_replayed(dir + "/out2", r.out);
}

TEST(PublicDataset, DownloadsFromTheHubIntoTheCache) {
  const std::string dir = make_temp_dir("ip-sharegpt-hub-");
  const fs::path hub = fs::path(dir) / "hub";
  write_fixture(hub / "datasets/anon8231489123/ShareGPT_Vicuna_unfiltered" / kFile);
  // One mock is both the Hub and the inference server.
  MockServerProcess mock({"--fast", "--hub-dir", hub.string(), "--hub-token", "sekret"});
  const fs::path work = fs::path(dir) / "work";
  fs::create_directories(work);
  const std::string out = dir + "/out";
  auto r = run_process(profile(mock, out), std::chrono::seconds(120), work.string(),
                       {"HF_ENDPOINT=" + mock.url(), "HF_TOKEN=sekret",
                        "HF_HUB_OFFLINE=", "INFERPERF_DATASET_CACHE="});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("downloaded from " + mock.url() +
                       "/datasets/anon8231489123/ShareGPT_Vicuna_unfiltered/resolve/main/" + kFile),
            std::string::npos)
      << r.out;
  expect_replayed(out, r.out);
  const fs::path cached = work / kCache / kFile;
  ASSERT_TRUE(fs::exists(cached));
  EXPECT_EQ(read_file(cached.string()), fixture().dump(1));
  for (const auto& e : fs::directory_iterator(work / kCache))
    EXPECT_EQ(e.path().filename(), kFile) << "no temporary file left";
}

TEST(PublicDataset, OfflineOrFailedDownloadSaysWhereToPutTheFile) {
  const std::string dir = make_temp_dir("ip-sharegpt-none-");
  const std::string where = dir + "/" + kCache + "/" + kFile;
  {
    // No server is contacted: the error comes before any request or artifact folder.
    auto r = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", "http://127.0.0.1:9",
                          "--artifact-dir", dir + "/out", "--public-dataset", "sharegpt"},
                         std::chrono::seconds(60), dir,
                         {"HF_HUB_OFFLINE=1", "INFERPERF_DATASET_CACHE="});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("HF_HUB_OFFLINE / HF_DATASETS_OFFLINE forbids a download"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("put it at " + where + ", or give its path with --input-file"),
              std::string::npos)
        << r.out;
    EXPECT_FALSE(fs::exists(dir + "/out"));
  }
  {
    // The Hub does not have the file (404): nothing is cached, same advice.
    MockServerProcess mock({"--fast", "--hub-dir", dir + "/empty-hub"});
    auto r =
        run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(),
                     "--artifact-dir", dir + "/out", "--public-dataset", "sharegpt"},
                    std::chrono::seconds(60), dir,
                    {"HF_ENDPOINT=" + mock.url(), "HF_HUB_OFFLINE=", "INFERPERF_DATASET_CACHE="});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("refused (HTTP 404)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("put it at " + where), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir + "/out"));
    EXPECT_FALSE(fs::exists(where));
    EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
  }
}

TEST(PublicDataset, HubCacheDatasetIsReplayedAndRefusalsExitTwo) {
  const std::string dir = make_temp_dir("ip-public-hub-");
  const fs::path repo = fs::path(dir) / "hub/datasets--HuggingFaceH4--mt_bench_prompts";
  fs::create_directories(repo / "refs");
  std::ofstream(repo / "refs/main") << "0123abcd";
  fs::create_directories(repo / "snapshots/0123abcd/data");
  std::ofstream(repo / "snapshots/0123abcd/data/train-00000-of-00001.jsonl")
      << R"({"prompt": ["Name a fruit.", "Why that one?"], "category": "writing"})"
      << "\n"
      << R"({"prompt": ["Say hi."], "category": "roleplay"})"
      << "\n"
      << R"({"prompt": ["Not read: the cap is 2."]})"
      << "\n";
  const std::vector<std::string> env = {"HF_HUB_CACHE=" + dir + "/hub", "HF_HUB_OFFLINE=1"};
  {
    MockServerProcess mock({"--fast"});
    const std::string out = dir + "/out";
    auto r = run_process(
        {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--artifact-dir", out,
         "--public-dataset", "spec_al_mtbench", "--num-dataset-entries", "2", "--request-count",
         "3", "--osl", "8", "--concurrency", "1"},
        std::chrono::seconds(120), dir, env);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("(Hugging Face cache, 0123abcd)"), std::string::npos) << r.out;
    const json inputs = json::parse(read_file(out + "/inputs.json"));
    ASSERT_EQ(inputs["data"].size(), 2u) << inputs.dump(1);
    const std::vector<std::vector<std::string>> want = {{"Name a fruit.", "Why that one?"},
                                                        {"Say hi."}};
    for (std::size_t i = 0; i < want.size(); ++i) {
      const json& payloads = inputs["data"][i]["payloads"];
      ASSERT_EQ(payloads.size(), want[i].size()) << payloads.dump(1);
      for (std::size_t k = 0; k < want[i].size(); ++k) {
        EXPECT_EQ(payloads[k]["messages"].back()["content"], want[i][k]) << payloads[k].dump();
        EXPECT_EQ(payloads[k]["max_completion_tokens"], 8);
      }
    }
    EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 3);
    const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
    EXPECT_EQ(summary["input_config"]["datasets"][0]["dataset"], "spec_al_mtbench");
  }
  // Known names that cannot be replayed, and filters a dataset does not declare: exit 2 before
  // any request or artifact folder.
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--public-dataset", "librispeech"},
       "--public-dataset librispeech (openslr/librispeech_asr, "
       "audio) is not supported: each request carries"},
      {{"--public-dataset", "aimo", "--dataset-filter", "harness=claude_code"},
       "--public-dataset aimo does not support filters"},
  };
  for (const auto& [args, message] : refused) {
    std::vector<std::string> a = {INFERPERF_BIN,    "profile",    "-m",
                                  "mock-model",     "-u",         "http://127.0.0.1:9",
                                  "--artifact-dir", dir + "/out2"};
    a.insert(a.end(), args.begin(), args.end());
    auto r = run_process(a, std::chrono::seconds(60), dir, env);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir + "/out2"));
  }
}

}  // namespace
}  // namespace inferperf::testing
