// single_turn and multi_turn JSONL datasets: parsing, merging, inference and errors that name the
// file, line and field.
#include "dataset/custom_loader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;

class CustomLoader : public ::testing::Test {
 protected:
  fs::path write(const std::string& content) {
    // ctest runs every test in its own process, in parallel: the pid keeps the files apart.
    const fs::path p = fs::temp_directory_path() / ("ip-custom-" + std::to_string(::getpid()) +
                                                    "-" + std::to_string(counter_++) + ".jsonl");
    std::ofstream(p) << content;
    files_.push_back(p);
    return p;
  }
  core::Result<CustomDataset> load(const fs::path& p, std::optional<std::string> type = {}) {
    CustomLoadOptions o;
    o.path = p;
    o.type = std::move(type);
    return load_custom_dataset(o, rng_);
  }
  void TearDown() override {
    for (const auto& f : files_) fs::remove(f);
  }
  std::mt19937_64 rng_{1};
  int counter_ = 0;
  std::vector<fs::path> files_;
};

TEST_F(CustomLoader, SingleTurnLinesAreConversations) {
  const auto p = write(
      "{\"text\": \"hello\", \"timestamp\": 1000}\n"
      "\n"
      "{\"texts\": [\"a\", \"b\"], \"timestamp\": 1500.5, \"role\": \"user\"}\n"
      "{\"texts\": [{\"name\": \"text\", \"contents\": [\"x\", \"y\", \"z\"]}], \"timestamp\": "
      "900}\n");
  auto r = load(p);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kSingleTurn);
  EXPECT_EQ(r->lines, 3u);
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].turns[0].text, "hello");
  EXPECT_EQ(*c[0].turns[0].timestamp_ms, 1000.0);
  EXPECT_EQ(c[1].turns[0].text, "a");
  EXPECT_EQ(c[1].turns[0].more_texts, std::vector<std::string>{"b"});
  EXPECT_EQ(c[2].turns[0].more_texts, (std::vector<std::string>{"y", "z"}));
  EXPECT_NE(c[0].session_id, c[1].session_id);
  EXPECT_TRUE(r->has_timestamps);
  EXPECT_EQ(*r->first_timestamp_ms, 900.0);
}

TEST_F(CustomLoader, MultiTurnLinesWithTheSameSessionAreMerged) {
  const auto p = write(
      "{\"session_id\": \"s1\", \"turns\": [{\"text\": \"q1\", \"timestamp\": 0}, "
      "{\"text\": \"q2\", \"delay\": 250}]}\n"
      "{\"session_id\": \"s2\", \"turns\": [{\"text\": \"other\"}]}\n"
      "{\"session_id\": \"s1\", \"turns\": [{\"text\": \"q3\"}]}\n"
      "{\"turns\": [{\"text\": \"anonymous\"}]}\n");
  auto r = load(p);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kMultiTurn);
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].session_id, "s1");
  ASSERT_EQ(c[0].turns.size(), 3u);
  EXPECT_EQ(c[0].turns[2].text, "q3");
  EXPECT_EQ(*c[0].turns[1].delay_ms, 250.0);
  EXPECT_EQ(c[1].session_id, "s2");
  EXPECT_EQ(c[2].session_id.size(), 36u) << "a generated UUID";
  EXPECT_FALSE(r->has_timestamps);
}

TEST_F(CustomLoader, ExplicitTypeWinsAndIsChecked) {
  const auto p = write("{\"type\": \"multi_turn\", \"turns\": [{\"text\": \"x\"}]}\n");
  auto r = load(p);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kMultiTurn);
  EXPECT_EQ(infer_custom_type("{\"text\": \"a\"}"), CustomType::kSingleTurn);
  EXPECT_EQ(infer_custom_type("{\"turns\": []}"), CustomType::kMultiTurn);
  EXPECT_EQ(infer_custom_type("{\"input_length\": 5}"), CustomType::kMooncakeTrace);
  EXPECT_EQ(infer_custom_type("{\"unknown\": 5}"), std::nullopt);
  EXPECT_EQ(infer_custom_type("not json"), std::nullopt);
}

struct BadFile {
  std::string content;
  int line;
  std::string field;
  std::string message;
};

class CustomLoaderErrors : public CustomLoader, public ::testing::WithParamInterface<BadFile> {};

TEST_P(CustomLoaderErrors, NameFileLineAndField) {
  const auto p = write(GetParam().content);
  auto r = load(p);
  ASSERT_FALSE(r.ok());
  const auto& e = r.error();
  EXPECT_EQ(e.file, p.string());
  EXPECT_EQ(e.line, GetParam().line);
  EXPECT_EQ(e.field, GetParam().field);
  EXPECT_NE(e.message.find(GetParam().message), std::string::npos) << e.message;
  EXPECT_NE(e.describe().find(p.string()), std::string::npos) << e.describe();
}

INSTANTIATE_TEST_SUITE_P(
    Table, CustomLoaderErrors,
    ::testing::Values(
        BadFile{"{\"text\": \"ok\"}\n{\"text\": 5}\n", 2, "text", "'text' must be a string"},
        BadFile{"{\"text\": \"a\"}\n\n{\"texts\": [\"a\"], \"text\": \"b\"}\n", 3, "text",
                "mutually exclusive"},
        BadFile{"{\"text\": \"a\", \"image\": \"no-such.png\"}\n", 1, "image",
                "'no-such.png' is not a URL, a data: URI or a readable file"},
        BadFile{"{\"text\": \"a\", \"timestamp\": 1, \"delay\": 2}\n", 1, "timestamp",
                "mutually exclusive"},
        BadFile{"{\"text\": \"a\"}\n{broken\n", 2, "", "invalid JSON at column 2"},
        BadFile{"{\"turns\": [{\"text\": \"a\"}, {\"role\": \"user\"}]}\n", 1, "turns[1].text",
                "needs 'text' or 'texts' (or an image, audio or video)"},
        BadFile{"{\"turns\": []}\n", 1, "turns", "non-empty 'turns'"},
        BadFile{"{\"prompt_len\": 10}\n", 0, "--custom-dataset-type",
                "no dataset format matches the first record (its fields: prompt_len)"},
        BadFile{"{\"text\": \"a\", \"delay\": -1}\n", 1, "delay", ">= 0"}));

TEST_F(CustomLoader, MissingFileAndEmptyFile) {
  auto missing = load("/nonexistent/dir/data.jsonl");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "the file does not exist");
  EXPECT_EQ(missing.error().file, "/nonexistent/dir/data.jsonl");
  auto empty = load(write("\n\n"));
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("is empty"), std::string::npos);
  auto bad_type = load(write("{\"text\": \"a\"}\n"), "mooncake_trace");
  ASSERT_FALSE(bad_type.ok());
  EXPECT_NE(bad_type.error().message.find("exactly one of input_length"), std::string::npos);
}

TEST_F(CustomLoader, ScheduleOffsetsFilterFirstTurnsInclusively) {
  const auto p = write(
      "{\"text\": \"a\", \"timestamp\": 100}\n{\"text\": \"b\", \"timestamp\": 200}\n"
      "{\"text\": \"c\", \"timestamp\": 300}\n{\"text\": \"d\", \"timestamp\": 400}\n");
  CustomLoadOptions o;
  o.path = p;
  o.start_offset_ms = 200;
  o.end_offset_ms = 300;
  auto r = load_custom_dataset(o, rng_);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->dataset.conversations.size(), 2u);
  EXPECT_EQ(r->dataset.conversations[0].turns[0].text, "b");
  EXPECT_EQ(r->dataset.conversations[1].turns[0].text, "c");
  EXPECT_EQ(*r->first_timestamp_ms, 200.0);
}

}  // namespace
}  // namespace inferperf::dataset
