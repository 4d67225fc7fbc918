// Public datasets (public_registry.hpp, public_loader.hpp): the registry, the filter checks, the
// data files chosen in a folder (split and subset naming, Parquet and its JSONL twin), and the
// conversations each loader family makes, with exact prompts.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dataset/public_loader.hpp"
#include "dataset/public_registry.hpp"
#include "scratch_dir.hpp"
#include "tokenizer/hub_cache.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const PublicDatasetSpec& spec(const char* name) {
  const PublicDatasetSpec* s = find_public_dataset_spec(name);
  EXPECT_NE(s, nullptr) << name;
  return *s;
}

std::vector<std::string> names(const std::vector<fs::path>& files, const fs::path& base) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(fs::relative(f, base).string());
  return out;
}

core::Result<PublicLoaded> load(const char* name, std::vector<fs::path> files,
                                std::optional<std::size_t> cap = std::nullopt) {
  PublicLoadOptions o;
  o.spec = &spec(name);
  o.files = std::move(files);
  o.max_conversations = cap;
  std::mt19937_64 ids(7);
  return load_public_records(o, ids);
}

std::vector<std::vector<std::string>> texts(const Dataset& d) {
  std::vector<std::vector<std::string>> out;
  for (const auto& c : d.conversations) {
    out.emplace_back();
    for (const auto& t : c.turns) out.back().push_back(t.text);
  }
  return out;
}

TEST(PublicRegistry, HoldsAiperfNamesWithTheirSources) {
  std::vector<std::string> got;
  for (const auto& s : public_datasets()) got.emplace_back(s.name);
  ASSERT_EQ(got.size(), 25u);
  EXPECT_EQ(got[0], "exgentic_v2");
  EXPECT_EQ(got[2], "sharegpt");
  EXPECT_EQ(got[24], "spgispeech");
  EXPECT_EQ(std::set<std::string>(got.begin(), got.end()).size(), 25u) << "no name twice";

  EXPECT_EQ(spec("aimo").repo, "AI-MO/NuminaMath-TIR");
  EXPECT_EQ(spec("aimo").prompt_column, "problem");
  EXPECT_EQ(spec("spec_al_gsm8k").subset, "main");
  EXPECT_EQ(spec("spec_al_gsm8k").split, "test");
  EXPECT_EQ(spec("spec_al_gsm8k").prompt_column, "question");
  EXPECT_EQ(spec("spec_al_mbpp").subset, "full");
  EXPECT_EQ(spec("spec_al_mtbench").family, PublicFamily::kMtBench);
  EXPECT_EQ(spec("spec_bench").family, PublicFamily::kSpecBench);
  EXPECT_TRUE(spec("spec_bench").repo.empty());
  EXPECT_TRUE(has(std::string(spec("spec_bench").url), "hemingkx/Spec-Bench"));
  EXPECT_EQ(spec("llava_onevision").subset, "sharegpt4o");
  EXPECT_EQ(spec("librispeech").subset, "clean");
  for (const char* refused :
       {"exgentic_v2", "exgentic", "mmstar", "mmvu", "vision_arena", "llava_onevision",
        "librispeech", "voxpopuli", "gigaspeech", "ami", "spgispeech"}) {
    EXPECT_EQ(spec(refused).family, PublicFamily::kRefused) << refused;
    EXPECT_FALSE(spec(refused).refusal.empty()) << refused;
  }
  EXPECT_EQ(find_public_dataset_spec("speed_bench_coding"), nullptr);
}

TEST(PublicRegistry, FiltersAreCheckedAgainstTheDatasetsDeclaration) {
  EXPECT_FALSE(check_public_filters(spec("aimo"), {}).has_value());
  auto e = check_public_filters(spec("aimo"), {{"harness", "claude_code"}});
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(has(e->message, "--public-dataset aimo does not support filters")) << e->message;

  EXPECT_FALSE(check_public_filters(spec("exgentic"),
                                    {{"harness", "CLAUDE_CODE"}, {"source_model", "gpt-4.1"}})
                   .has_value());
  e = check_public_filters(spec("exgentic"), {{"benchmark", "swebench"}});
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(has(e->message, "has no filter 'benchmark' (available: harness, source_model)"))
      << e->message;
  EXPECT_FALSE(check_public_filters(spec("exgentic_v2"), {{"benchmark", "swebench"}}).has_value());
  e = check_public_filters(spec("exgentic_v2"), {{"harness", "cursor"}});
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(has(e->message,
                  "--dataset-filter harness=cursor: unknown harness (available: "
                  "claude_code, openai_solo"))
      << e->message;
}

TEST(HubCache, LocationAndSnapshotFollowTheHubsRules) {
  using tokenizer::HubCacheEnv;
  EXPECT_EQ(tokenizer::hub_cache_dir(HubCacheEnv{"/a", "/b", "/c", "/d"}), fs::path("/a"));
  EXPECT_EQ(tokenizer::hub_cache_dir(HubCacheEnv{"", "/b", "/c", "/d"}), fs::path("/b/hub"));
  EXPECT_EQ(tokenizer::hub_cache_dir(HubCacheEnv{"", "", "/c", "/d"}),
            fs::path("/c/huggingface/hub"));
  EXPECT_EQ(tokenizer::hub_cache_dir(HubCacheEnv{"", "", "", "/d"}),
            fs::path("/d/.cache/huggingface/hub"));
  ScratchDir tmp("ip-hubcache-");
  tmp.write("c0ffee\n", "datasets--openai--gsm8k/refs/main");
  const auto snap = tokenizer::hub_snapshot(tmp.dir(), "datasets", "openai/gsm8k", "main");
  EXPECT_EQ(snap.commit, "c0ffee");
  EXPECT_EQ(snap.dir, tmp.dir() / "datasets--openai--gsm8k/snapshots/c0ffee");
  EXPECT_EQ(tokenizer::hub_snapshot(tmp.dir(), "datasets", "openai/gsm8k", "v2").commit, "v2");
}

TEST(PublicFiles, SplitAndSubsetFollowHubNaming) {
  ScratchDir tmp("ip-pubfiles-");
  for (const char* f : {"main/test-00000-of-00001.jsonl", "main/train-00000-of-00001.jsonl",
                        "socratic/test-00000-of-00001.jsonl", "README.md", "main/dataset_info.json",
                        ".git/test.jsonl"})
    tmp.write("{}\n", f);
  auto files = select_public_files(tmp.dir(), "main", false, "test", "spec_al_gsm8k");
  ASSERT_TRUE(files.ok()) << files.error().describe();
  EXPECT_EQ(names(*files, tmp.dir()), std::vector<std::string>{"main/test-00000-of-00001.jsonl"});

  files = select_public_files(tmp.dir(), "socratic", true, "test", "spec_al_gsm8k");
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(names(*files, tmp.dir()),
            std::vector<std::string>{"socratic/test-00000-of-00001.jsonl"});

  auto none = select_public_files(tmp.dir(), "nope", true, "test", "spec_al_gsm8k");
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(has(none.error().message, "no data file of subset 'nope' (--hf-subset)"))
      << none.error().message;
  // A default subset without a folder of its name: every folder is searched.
  files = select_public_files(tmp.dir(), "absent", false, "train", "x");
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(names(*files, tmp.dir()), std::vector<std::string>{"main/train-00000-of-00001.jsonl"});

  ScratchDir flat("ip-pubfiles-flat-");
  for (const char* f : {"test.jsonl", "data/train/part-0.json", "gsm_train.json", "val.jsonl"})
    flat.write("{}\n", f);
  files = select_public_files(flat.dir(), "", false, "train", "x");
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(names(*files, flat.dir()),
            (std::vector<std::string>{"data/train/part-0.json", "gsm_train.json"}));
  auto missing = select_public_files(flat.dir(), "", false, "validation", "mmvu");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(has(missing.error().message,
                  "--public-dataset mmvu: no data file of split 'validation' among "
                  "data/train/part-0.json, gsm_train.json, test.jsonl, val.jsonl"))
      << missing.error().message;
}

TEST(PublicFiles, ParquetIsRefusedWithTheConversionUnlessItsJsonlTwinExists) {
  ScratchDir tmp("ip-pubparquet-");
  tmp.write("PAR1", "data/train-00000-of-00002.parquet");
  tmp.write("PAR1", "data/train-00001-of-00002.parquet");
  auto files = select_public_files(tmp.dir(), "", false, "train", "aimo");
  ASSERT_FALSE(files.ok());
  const std::string first = (tmp.dir() / "data/train-00000-of-00002.parquet").string();
  const std::string twin = (tmp.dir() / "data/train-00000-of-00002.jsonl").string();
  const std::string& m = files.error().message;
  EXPECT_TRUE(has(m, "--public-dataset aimo: " + first +
                         " is Parquet (and 1 more Parquet file of this split), which inferperf "
                         "cannot read"))
      << m;
  EXPECT_TRUE(has(
      m, "pd.read_parquet('" + first + "').to_json('" + twin + "', orient='records', lines=True"))
      << m;
  EXPECT_TRUE(has(m, "duckdb -c \"COPY (SELECT * FROM '" + first + "') TO '" + twin + "'")) << m;
  EXPECT_TRUE(has(m, "a .jsonl file with the Parquet file's name is read in its place")) << m;
  EXPECT_EQ(files.error().file, first);

  tmp.write("{}\n", "data/train-00000-of-00002.jsonl");
  tmp.write("{}\n", "data/train-00001-of-00002.jsonl");
  files = select_public_files(tmp.dir(), "", false, "train", "aimo");
  ASSERT_TRUE(files.ok()) << files.error().describe();
  EXPECT_EQ(names(*files, tmp.dir()),
            (std::vector<std::string>{"data/train-00000-of-00002.jsonl",
                                      "data/train-00001-of-00002.jsonl"}));
  auto one = readable_public_file(tmp.dir() / "data/train-00001-of-00002.parquet", "aimo");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, tmp.dir() / "data/train-00001-of-00002.jsonl");
  tmp.write("PAR1", "lone.parquet");
  auto lone = readable_public_file(tmp.dir() / "lone.parquet", "aimo");
  ASSERT_FALSE(lone.ok());
  EXPECT_TRUE(has(lone.error().message, "lone.parquet is Parquet, which")) << lone.error().message;
}

TEST(PublicRecords, InstructionColumnGivesSingleTurnPrompts) {
  ScratchDir tmp("ip-pubrec-");
  const auto f = tmp.write(
      "{\"problem\": \"What is 2+2?\", \"solution\": \"4\"}\n"
      "\n"
      "{\"problem\": \"   \", \"solution\": \"x\"}\n"
      "{\"solution\": \"no problem column\"}\n"
      "{\"problem\": \" Spaces stay \", \"solution\": \"y\"}\n",
      "train.jsonl");
  auto got = load("aimo", {f});
  ASSERT_TRUE(got.ok()) << got.error().describe();
  EXPECT_EQ(got->records, 4u);
  EXPECT_EQ(got->skipped, 2u);
  EXPECT_EQ(texts(got->dataset),
            (std::vector<std::vector<std::string>>{{"What is 2+2?"}, {" Spaces stay "}}));
  ASSERT_EQ(got->dataset.conversations.size(), 2u);
  EXPECT_NE(got->dataset.conversations[0].session_id, got->dataset.conversations[1].session_id);
  EXPECT_EQ(got->dataset.conversations[0].session_id.size(), 36u) << "a UUID";
  EXPECT_FALSE(got->dataset.conversations[0].turns[0].max_tokens.has_value());

  auto capped = load("aimo", {f}, 1);
  ASSERT_TRUE(capped.ok());
  EXPECT_EQ(texts(capped->dataset), (std::vector<std::vector<std::string>>{{"What is 2+2?"}}));
  EXPECT_EQ(capped->records, 1u) << "reading stops at the cap";
}

TEST(PublicRecords, MissingColumnAndBadLinesNameTheFileAndLine) {
  ScratchDir tmp("ip-pubrec-bad-");
  const auto f = tmp.write("{\"question\": \"q\", \"answer\": \"a\"}\n", "test.jsonl");
  auto got = load("aimo", {f});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().file, f.string());
  EXPECT_EQ(got.error().line, 1);
  EXPECT_TRUE(has(got.error().message,
                  "the first record has no 'problem' column (columns: question, answer)"))
      << got.error().message;
  const auto g = tmp.write("{\"question\": \"q\"}\n{\"question\": oops}\n", "bad.jsonl");
  got = load("spec_al_gsm8k", {g});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().line, 2);
  EXPECT_EQ(got.error().file, g.string());
}

TEST(PublicRecords, BlazeditTemplateCombinesColumns) {
  ScratchDir tmp("ip-pubrec-tmpl-");
  const auto f = tmp.write(R"([{"code": "x = 1", "change_request": "rename x to y", "other": 3}])",
                           "train.json");
  auto got = load("blazedit_5k", {f});
  ASSERT_TRUE(got.ok()) << got.error().describe();
  EXPECT_EQ(texts(got->dataset),
            (std::vector<std::vector<std::string>>{
                {"Given a code file, please apply the change requests and generate the new "
                 "file.\n\nOriginal file:\n```python\nx = 1\n```\n\nChange request:\nrename x "
                 "to y\n\nPlease generate the new code file in the \"New file\" section below."}}));
  const auto g = tmp.write(R"([{"code": "x = 1"}])", "broken.json");
  got = load("blazedit_10k", {g});
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(has(got.error().message, "no 'change_request' column for the prompt template"))
      << got.error().message;
}

TEST(PublicRecords, MtBenchIsMultiTurnAndSpecBenchTakesTheFirstQuestion) {
  ScratchDir tmp("ip-pubrec-mt-");
  const auto mt = tmp.write(
      "{\"prompt\": [\"Write a poem.\", \" Now shorter. \"], \"category\": \"writing\"}\n"
      "{\"prompt\": \"not a list\"}\n"
      "{\"prompt\": [\"\", \"Only this.\"]}\n",
      "train.jsonl");
  auto got = load("spec_al_mtbench", {mt});
  ASSERT_TRUE(got.ok()) << got.error().describe();
  EXPECT_EQ(texts(got->dataset), (std::vector<std::vector<std::string>>{
                                     {"Write a poem.", "Now shorter."}, {"Only this."}}));
  EXPECT_EQ(got->skipped, 1u);

  const auto sb = tmp.write(
      "{\"question_id\": 81, \"category\": \"writing\", \"turns\": [\" First q \", \"Second\"]}\n"
      "{\"question_id\": 82, \"turns\": []}\n"
      "{\"question_id\": 83, \"turns\": [\"\", \"skipped whole\"]}\n",
      "spec_bench.jsonl");
  got = load("spec_bench", {sb});
  ASSERT_TRUE(got.ok()) << got.error().describe();
  EXPECT_EQ(texts(got->dataset), (std::vector<std::vector<std::string>>{{"First q"}}));
  EXPECT_EQ(got->skipped, 2u);
}

TEST(PublicRecords, ShardsAreReadInOrderUpToTheCap) {
  ScratchDir tmp("ip-pubrec-shards-");
  const auto a = tmp.write("{\"text\": \"a1\"}\n{\"text\": \"a2\"}\n", "test-0.jsonl");
  const auto b = tmp.write("{\"text\": \"b1\"}\n{\"text\": \"b2\"}\n", "test-1.jsonl");
  auto got = load("spec_al_mbpp", {a, b}, 3);
  ASSERT_TRUE(got.ok()) << got.error().describe();
  EXPECT_EQ(texts(got->dataset), (std::vector<std::vector<std::string>>{{"a1"}, {"a2"}, {"b1"}}));
}

// A fake Hub: the listing and files of one repository, and every request it got.
struct FakeHub {
  std::string listing;
  std::map<std::string, std::string> files;  // URL -> body
  int list_status = 200;
  std::vector<std::string> urls;
  std::vector<std::string> auth;
  tokenizer::HubFetch fetch() {
    return [this](const std::string& url,
                  const auto& headers) -> core::Result<tokenizer::HubResponse> {
      urls.push_back(url);
      auth.push_back(headers.empty() ? "" : headers.front().second);
      if (url.find("/api/datasets/") != std::string::npos)
        return tokenizer::HubResponse{list_status, listing, ""};
      auto it = files.find(url);
      if (it == files.end()) return tokenizer::HubResponse{404, "", ""};
      return tokenizer::HubResponse{200, it->second, "c0ffee42"};
    };
  }
};

TEST(PublicHub, DownloadsTheSubsetsSplitIntoTheCacheLayout) {
  ScratchDir tmp("ip-pubhub-");
  FakeHub hub;
  hub.listing = R"([{"type": "directory", "path": "main"},
    {"type": "file", "path": "main/test-00000-of-00001.parquet"},
    {"type": "file", "path": "main/test-00000-of-00001.jsonl"},
    {"type": "file", "path": "main/train-00000-of-00001.jsonl"},
    {"type": "file", "path": "socratic/test-00000-of-00001.jsonl"},
    {"type": "file", "path": "../escape/test.jsonl"},
    {"type": "file", "path": "README.md"}])";
  const std::string base = "http://hub.test/datasets/openai/gsm8k/resolve/main/";
  hub.files[base + "main/test-00000-of-00001.jsonl"] = "{\"question\": \"q1\"}\n";
  PublicHubDownload o;
  o.endpoint = "http://hub.test/";
  o.token = "tok";
  o.hub_cache = tmp.dir();
  o.subset = "main";
  auto snap = download_public_dataset(spec("spec_al_gsm8k"), o, hub.fetch());
  ASSERT_TRUE(snap.ok()) << snap.error().describe();
  EXPECT_EQ(*snap, tmp.dir() / "datasets--openai--gsm8k/snapshots/c0ffee42");
  EXPECT_EQ(hub.urls, (std::vector<std::string>{
                          "http://hub.test/api/datasets/openai/gsm8k/tree/main?recursive=true",
                          base + "main/test-00000-of-00001.jsonl"}))
      << "the Parquet twin, the train split and other subsets are not fetched";
  EXPECT_EQ(hub.auth, (std::vector<std::string>{"Bearer tok", "Bearer tok"}));
  const auto resolved = tokenizer::hub_snapshot(tmp.dir(), "datasets", "openai/gsm8k", "main");
  EXPECT_EQ(resolved.dir, *snap) << "refs/main names the commit";
  auto files = select_public_files(*snap, "main", false, "test", "spec_al_gsm8k");
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(files->front(), *snap / "main/test-00000-of-00001.jsonl");
}

TEST(PublicHub, RefusedListingsAndMissingSplitsAreErrors) {
  ScratchDir tmp("ip-pubhub-err-");
  FakeHub hub;
  hub.list_status = 401;
  PublicHubDownload o;
  o.endpoint = "http://hub.test";
  o.hub_cache = tmp.dir();
  auto snap = download_public_dataset(spec("aimo"), o, hub.fetch());
  ASSERT_FALSE(snap.ok());
  EXPECT_TRUE(has(snap.error().message,
                  "--public-dataset aimo: GET "
                  "http://hub.test/api/datasets/AI-MO/NuminaMath-TIR/tree/main?recursive=true "
                  "answered HTTP 401 (a gated dataset: set HF_TOKEN"))
      << snap.error().message;
  hub.list_status = 200;
  hub.listing = R"([{"type": "file", "path": "data/test-0.jsonl"}])";
  snap = download_public_dataset(spec("aimo"), o, hub.fetch());
  ASSERT_FALSE(snap.ok());
  EXPECT_TRUE(has(snap.error().message, "no data file of split 'train' among data/test-0.jsonl"))
      << snap.error().message;
  EXPECT_FALSE(fs::exists(tmp.dir() / "datasets--AI-MO--NuminaMath-TIR"));
}

}  // namespace
}  // namespace inferperf::dataset
