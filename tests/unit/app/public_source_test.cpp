// Where --public-dataset reads from (public_dataset.hpp): --input-file (a file or a folder), the
// Hugging Face cache layout, AIPerf's cache folder, and the errors without a source; the option
// list against the registry; the datasets[] entry of input_config.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/profile/input_config.hpp"
#include "app/profile/public_dataset.hpp"
#include "config/cli.hpp"
#include "config/cli_areas.hpp"
#include "dataset/public_registry.hpp"

namespace inferperf::app {
namespace {

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class PublicSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ip-pubsrc-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "work");
    env_.offline = true;
    env_.working_dir = dir_ / "work";
    env_.hub.hf_hub_cache = (dir_ / "hub").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& rel, const std::string& text = "{}\n") {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  const dataset::PublicDatasetSpec& spec(const char* name) {
    return *dataset::find_public_dataset_spec(name);
  }

  fs::path dir_;
  PublicSourceEnv env_;
};

TEST_F(PublicSourceTest, HubCacheSnapshotNamedByRefsIsRead) {
  write("hub/datasets--openai--gsm8k/refs/main", "abc123");
  const auto f =
      write("hub/datasets--openai--gsm8k/snapshots/abc123/main/test-00000-of-00001.jsonl");
  write("hub/datasets--openai--gsm8k/snapshots/abc123/main/train-00000-of-00001.jsonl");
  write("hub/datasets--openai--gsm8k/snapshots/old/main/test-00000-of-00001.jsonl");
  auto src = resolve_public_source(spec("spec_al_gsm8k"), "", {"main", false}, env_);
  ASSERT_TRUE(src.ok()) << src.error().describe();
  EXPECT_EQ(src->files, std::vector<fs::path>{f});
  EXPECT_EQ(src->origin, "Hugging Face cache, abc123");
}

TEST_F(PublicSourceTest, InputFileFolderOrParquetFile) {
  const auto jsonl = write("mine/data/train-0.jsonl");
  write("mine/data/test-0.jsonl");
  auto src = resolve_public_source(spec("aimo"), (dir_ / "mine").string(), {"", false}, env_);
  ASSERT_TRUE(src.ok()) << src.error().describe();
  EXPECT_EQ(src->files, std::vector<fs::path>{jsonl});
  EXPECT_EQ(src->origin, "--input-file");

  const auto parquet = write("one/test.parquet", "PAR1");
  src = resolve_public_source(spec("spec_al_math500"), parquet.string(), {"", false}, env_);
  ASSERT_FALSE(src.ok());
  EXPECT_TRUE(has(src.error().message, parquet.string() + " is Parquet")) << src.error().message;
  const auto twin = write("one/test.jsonl");
  src = resolve_public_source(spec("spec_al_math500"), parquet.string(), {"", false}, env_);
  ASSERT_TRUE(src.ok());
  EXPECT_EQ(src->files, std::vector<fs::path>{twin});
}

TEST_F(PublicSourceTest, OneFileDatasetsUseAiperfsCacheThenTheHubCache) {
  auto src = resolve_public_source(spec("spec_bench"), "", {"", false}, env_);
  ASSERT_FALSE(src.ok());
  EXPECT_TRUE(has(src.error().message, "HF_DATASETS_OFFLINE forbids a download"))
      << src.error().message;
  EXPECT_TRUE(has(src.error().message,
                  "put it at " + (dir_ / "work/.cache/aiperf/datasets/spec_bench.jsonl").string()))
      << src.error().message;
  const auto cached = write("work/.cache/aiperf/datasets/spec_bench.jsonl");
  src = resolve_public_source(spec("spec_bench"), "", {"", false}, env_);
  ASSERT_TRUE(src.ok());
  EXPECT_EQ(src->files, std::vector<fs::path>{cached});
  EXPECT_EQ(src->origin, "cache");

  const auto hub = write(
      "hub/datasets--anon8231489123--ShareGPT_Vicuna_unfiltered/snapshots/main/"
      "ShareGPT_V3_unfiltered_cleaned_split.json",
      "[]");
  src = resolve_public_source(spec("sharegpt"), "", {"", false}, env_);
  ASSERT_TRUE(src.ok()) << src.error().describe();
  EXPECT_EQ(src->files, std::vector<fs::path>{hub});
  EXPECT_EQ(src->origin, "Hugging Face cache, main");
}

TEST_F(PublicSourceTest, MissingHubDatasetSaysHowToFetchIt) {
  auto src = resolve_public_source(spec("spec_al_mbpp"), "", {"full", false}, env_);
  ASSERT_FALSE(src.ok());
  const std::string& m = src.error().message;
  EXPECT_TRUE(
      has(m,
          "--public-dataset spec_al_mbpp: the dataset is not in the Hugging Face "
          "cache (looked in the Hugging Face cache at " +
              (dir_ / "hub/datasets--google-research-datasets--mbpp/snapshots/main").string()))
      << m;
  EXPECT_TRUE(has(m, "huggingface-cli download --repo-type dataset google-research-datasets/mbpp"))
      << m;
}

TEST_F(PublicSourceTest, ParquetOnlySplitIsDownloadedThenNeedsConverting) {
  env_.offline = false;
  env_.hf_endpoint = "http://hub.test";
  std::vector<std::string> urls;
  env_.fetch = [&urls](const std::string& url,
                       const auto&) -> core::Result<tokenizer::HubResponse> {
    urls.push_back(url);
    if (url.find("/api/") != std::string::npos)
      return tokenizer::HubResponse{200, R"([{"type": "file", "path": "test.parquet"}])", ""};
    return tokenizer::HubResponse{200, "PAR1", "feed01"};
  };
  auto src = resolve_public_source(spec("spec_al_humaneval"), "", {"", false}, env_);
  ASSERT_FALSE(src.ok());
  const fs::path got =
      dir_ / "hub/datasets--openai--openai_humaneval/snapshots/feed01/test.parquet";
  EXPECT_TRUE(fs::exists(got));
  EXPECT_TRUE(has(src.error().message, got.string() + " is Parquet")) << src.error().message;
  EXPECT_EQ(urls.back(),
            "http://hub.test/datasets/openai/openai_humaneval/resolve/main/test.parquet");

  // Converted in place: the next run reads the twin from the cache without a request.
  std::ofstream(got.parent_path() / "test.jsonl") << "{}\n";
  urls.clear();
  src = resolve_public_source(spec("spec_al_humaneval"), "", {"", false}, env_);
  ASSERT_TRUE(src.ok()) << src.error().describe();
  EXPECT_EQ(src->files, std::vector<fs::path>{got.parent_path() / "test.jsonl"});
  EXPECT_EQ(src->origin, "Hugging Face cache, feed01");
  EXPECT_TRUE(urls.empty());
}

TEST(PublicDatasetNames, CommandLineChoicesMatchTheRegistry) {
  std::vector<std::string> registry;
  for (const auto& s : dataset::public_datasets()) registry.emplace_back(s.name);
  EXPECT_EQ(config::public_dataset_names(), registry);
}

TEST(PublicDatasetNames, InputConfigEchoesSubsetAndFilters) {
  const auto o = config::parse_command_line({"profile", "-m", "x", "--public-dataset",
                                             "exgentic_v2", "--hf-subset", "s1", "--dataset-filter",
                                             "harness=claude_code,benchmark=swebench"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  const auto ic = build_input_config(o.config, "artifacts/x");
  const auto& d = ic["datasets"][0];
  EXPECT_EQ(d["type"], "public");
  EXPECT_EQ(d["dataset"], "exgentic_v2");
  EXPECT_EQ(d["hf_subset"], "s1");
  EXPECT_EQ(d["filters"].dump(), R"({"harness":"claude_code","benchmark":"swebench"})");
  const auto plain = config::parse_command_line({"profile", "-m", "x", "--public-dataset", "aimo"});
  const auto d2 = build_input_config(plain.config, "artifacts/x")["datasets"][0];
  EXPECT_FALSE(d2.contains("hf_subset"));
  EXPECT_FALSE(d2.contains("filters"));
}

}  // namespace
}  // namespace inferperf::app
