// The ShareGPT loader: pairing rules, vLLM's length filter with a real tokenizer (gpt4o: every
// lower-case English word after a space is one token), session ids and bad files.
#include "dataset/sharegpt_loader.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kShareGptSource = INFERPERF_SOURCE_DIR;

class ShareGpt : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto path = kShareGptSource / ".cache/tokenizers/gpt4o/tokenizer.json";
    ASSERT_TRUE(fs::exists(path)) << path << " is missing: run scripts/fetch-tokenizers.sh";
    auto tok = tokenizer::HfTokenizer::load(path);
    ASSERT_TRUE(tok.ok()) << tok.error().describe();
    tok_ = (*tok).release();
  }
  static void TearDownTestSuite() {
    delete tok_;
    tok_ = nullptr;
  }

  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ip-sharegpt-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& text, const std::string& name = "sharegpt.json") const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

  core::Result<ShareGptDataset> load(const fs::path& p, bool min_completion = true,
                                     int threads = 0) const {
    ShareGptOptions o;
    o.path = p;
    o.tokenizer = tok_;
    o.check_min_completion = min_completion;
    o.threads = threads;
    std::mt19937_64 ids(42);
    return load_sharegpt(o, ids);
  }

  static tokenizer::Tokenizer* tok_;
  fs::path dir_;
};

tokenizer::Tokenizer* ShareGpt::tok_ = nullptr;

// `n` words, `n` tokens for gpt4o ("w0 w1 ..." would split digits; these are plain words).
std::string words(int n, const std::string& word = "word") {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? " " : "") + word;
  return s;
}

json msg(const std::string& from, const json& value) {
  return {{"from", from}, {"value", value}};
}
json entry(const std::string& id, json messages) {
  json e = {{"conversations", std::move(messages)}};
  if (!id.empty()) e["id"] = id;
  return e;
}

const std::string kP1 = "name a fruit for me";         // 5 tokens
const std::string kC1 = "an apple is a common fruit";  // 6
const std::string kP2 = "and a green one please";      // 5
const std::string kC2 = "a lime is small and green";   // 6

json fixture() {
  json a = json::array();
  a.push_back(entry("a1", {msg("human", kP1), msg("gpt", kC1)}));  // [0] one turn
  a.push_back(entry("a2", {msg("human", kP1), msg("gpt", kC1), msg("human", kP2),
                           msg("gpt", kC2)}));  // [1] two turns
  // [2] other roles are left out before pairing: human, (bing), gpt is a pair.
  a.push_back(entry("a3", {msg("system", "you are a helpful bot"), msg("human", kP2),
                           msg("bing", "search results here"), msg("gpt", kC2)}));
  // [3] no human/gpt roles at all: the first two values, once; no id.
  a.push_back(entry(
      "", {msg("user", kP2), msg("assistant", kC1), msg("user", kP1), msg("assistant", kC2)}));
  a.push_back(entry("short", {msg("human", kP1)}));  // [4] fewer than 2 messages
  a.push_back(entry("none", json::array()));         // [5] no messages
  // [6] only empty pairs.
  a.push_back(
      entry("empty", {msg("human", ""), msg("gpt", kC1), msg("human", kP1), msg("gpt", nullptr)}));
  // [7] an empty pair skipped, the next kept.
  a.push_back(
      entry("half", {msg("human", ""), msg("gpt", kC1), msg("human", kP2), msg("gpt", kC2)}));
  a.push_back(entry("p3", {msg("human", "one two three"), msg("gpt", kC1)}));  // [8] prompt 3
  a.push_back(entry("c3", {msg("human", kP1), msg("gpt", "one two three")}));  // [9] completion 3
  a.push_back(entry("p1025", {msg("human", words(1025)), msg("gpt", kC1)}));   // [10]
  a.push_back(entry("t2049", {msg("human", words(1000)), msg("gpt", words(1049))}));  // [11]
  a.push_back(entry("t2048", {msg("human", words(1024)), msg("gpt", words(1024))}));  // [12]
  // [13] the second pair fails: the whole entry goes.
  a.push_back(entry("late", {msg("human", kP1), msg("gpt", kC1), msg("human", "one two three"),
                             msg("gpt", kC2)}));
  // [14] human, human, gpt: only the second human message is answered.
  a.push_back(entry("hhg", {msg("human", kP1), msg("human", kP2), msg("gpt", kC2)}));
  // [15] gpt first: skipped over.
  a.push_back(entry("ghg", {msg("gpt", kC2), msg("human", kP1), msg("gpt", kC1)}));
  a.push_back(entry("a1", {msg("human", kP2), msg("gpt", kC2)}));  // [16] repeated id
  // [17] a message that is not an object is ignored.
  a.push_back(entry("junk", {json("stray text"), msg("human", kP1), msg("gpt", kC1)}));
  return a;
}

struct Expected {
  std::string session;
  std::vector<std::pair<std::string, int>> turns;  // prompt, max tokens
};

void expect_dataset(const ShareGptDataset& d, const std::vector<Expected>& want) {
  ASSERT_EQ(d.dataset.conversations.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& conv = d.dataset.conversations[i];
    if (!want[i].session.empty()) {
      EXPECT_EQ(conv.session_id, want[i].session) << i;
    }
    ASSERT_EQ(conv.turns.size(), want[i].turns.size()) << conv.session_id;
    for (std::size_t k = 0; k < conv.turns.size(); ++k) {
      EXPECT_EQ(conv.turns[k].text, want[i].turns[k].first) << conv.session_id << " turn " << k;
      EXPECT_EQ(conv.turns[k].max_tokens, want[i].turns[k].second)
          << conv.session_id << " turn " << k;
      EXPECT_EQ(conv.turns[k].role, "user");
    }
  }
}

TEST_F(ShareGpt, FixtureTextsHaveTheTokenCountsTheTestAssumes) {
  EXPECT_EQ(tok_->count(kP1), 5u);
  EXPECT_EQ(tok_->count(kC1), 6u);
  EXPECT_EQ(tok_->count(kP2), 5u);
  EXPECT_EQ(tok_->count(kC2), 6u);
  EXPECT_EQ(tok_->count("one two three"), 3u);
  for (int n : {1000, 1024, 1025, 1049}) EXPECT_EQ(tok_->count(words(n)), std::size_t(n));
}

TEST_F(ShareGpt, PairsFilterAndSessionIds) {
  auto d = load(write(fixture().dump()));
  ASSERT_TRUE(d.ok()) << d.error().describe();
  EXPECT_EQ(d->entries, 18u);
  EXPECT_EQ(d->no_pairs, 3u);       // [4] [5] [6]
  EXPECT_EQ(d->out_of_limits, 5u);  // [8] [9] [10] [11] [13]
  EXPECT_EQ(d->skipped(), 8u);
  EXPECT_EQ(d->kept(), 10u);
  EXPECT_EQ(d->renamed_ids, 1u);
  expect_dataset(*d, {
                         {"a1", {{kP1, 6}}},
                         {"a2", {{kP1, 6}, {kP2, 6}}},
                         {"a3", {{kP2, 6}}},
                         {"", {{kP2, 6}}},
                         {"half", {{kP2, 6}}},
                         {"t2048", {{words(1024), 1024}}},
                         {"hhg", {{kP2, 6}}},
                         {"ghg", {{kP1, 6}}},
                         {"a1#2", {{kP2, 6}}},
                         {"junk", {{kP1, 6}}},
                     });
  // The entry without an id gets a UUID from the id stream.
  EXPECT_EQ(d->dataset.conversations[3].session_id.size(), 36u);
}

TEST_F(ShareGpt, WithoutTheCompletionMinimumShortCompletionsStay) {
  auto d = load(write(fixture().dump()), /*min_completion=*/false);
  ASSERT_TRUE(d.ok()) << d.error().describe();
  EXPECT_EQ(d->out_of_limits, 4u);
  ASSERT_EQ(d->kept(), 11u);
  const auto& c3 = d->dataset.conversations[5];
  EXPECT_EQ(c3.session_id, "c3");
  ASSERT_EQ(c3.turns.size(), 1u);
  EXPECT_EQ(c3.turns[0].max_tokens, 3);
}

TEST_F(ShareGpt, ThreadCountDoesNotChangeTheResult) {
  const auto p = write(fixture().dump(2));  // pretty-printed: several lines
  auto one = load(p, true, 1);
  auto many = load(p, true, 4);
  ASSERT_TRUE(one.ok() && many.ok());
  ASSERT_EQ(one->kept(), many->kept());
  for (std::size_t i = 0; i < one->kept(); ++i) {
    const auto& a = one->dataset.conversations[i];
    const auto& b = many->dataset.conversations[i];
    EXPECT_EQ(a.session_id, b.session_id);
    ASSERT_EQ(a.turns.size(), b.turns.size());
    for (std::size_t k = 0; k < a.turns.size(); ++k) {
      EXPECT_EQ(a.turns[k].text, b.turns[k].text);
      EXPECT_EQ(a.turns[k].max_tokens, b.turns[k].max_tokens);
    }
  }
}

TEST_F(ShareGpt, NumericIdsAreKept) {
  json a = json::array();
  a.push_back({{"id", 7}, {"conversations", {msg("human", kP1), msg("gpt", kC1)}}});
  auto d = load(write(a.dump()));
  ASSERT_TRUE(d.ok()) << d.error().describe();
  ASSERT_EQ(d->kept(), 1u);
  EXPECT_EQ(d->dataset.conversations[0].session_id, "7");
}

void expect_error(const core::Result<ShareGptDataset>& d, const std::vector<std::string>& parts) {
  ASSERT_FALSE(d.ok());
  const std::string text = d.error().describe();
  for (const auto& p : parts) EXPECT_NE(text.find(p), std::string::npos) << text;
}

TEST_F(ShareGpt, BadFilesNameTheFileAndTheEntry) {
  expect_error(load(write(R"({"conversations": []})")),
               {"sharegpt.json", "one JSON list of entries, got an object"});
  expect_error(load(write(R"([{"id": "x", "conversations": []}, {"id": "y"}])")),
               {"sharegpt.json", "entry [1] (id y) has no 'conversations' list"});
  expect_error(load(write(R"([{"conversations": {"from": "human"}}])")),
               {"entry [0]: 'conversations' must be a list, got an object"});
  expect_error(load(write(R"([{"conversations": []}, 3])")),
               {"entry [1] must be an object, got an integer"});
  expect_error(load(write(R"([{"conversations": [{"from": "human", "value": "hi"},)"
                          R"( {"from": "gpt", "value": 5}]}])")),
               {"entry [0] conversations[1]: 'value' must be a string, got an integer"});
  expect_error(load(dir_ / "missing.json"), {"missing.json", "does not exist"});
  expect_error(load(write("  \n")), {"is empty"});
  expect_error(load(dir_), {"is a folder"});
}

TEST_F(ShareGpt, SyntaxErrorsGiveLineColumnByteOffsetAndEntry) {
  const std::string text =
      "[\n"
      "  {\"conversations\": []},\n"
      "  {\"conversations\": [}\n"
      "]\n";
  expect_error(load(write(text)),
               {"sharegpt.json:3: invalid JSON at column 22", "byte offset 48", "entry [1]"});
  expect_error(load(write("[{\"conversations\": []}]\n{}")), {"invalid JSON", "byte offset"});
  expect_error(load(write("[{\"conversations\": [], \"id\": \"\xff\"}]")),
               {"sharegpt.json:1: invalid JSON", "entry [0]"});
}

TEST_F(ShareGpt, ATokenizerIsRequired) {
  ShareGptOptions o;
  o.path = write(fixture().dump());
  std::mt19937_64 ids(1);
  expect_error(load_sharegpt(o, ids), {"tokenizer is needed"});
}

}  // namespace
}  // namespace inferperf::dataset
