// AIPerf 0.11's entry count for --input-file datasets: a typed --num-dataset-entries,
// --num-conversations or --request-count keeps the file's first N conversations (counted after
// session merging); none typed keeps them all. random_pool samples that many (100 untyped).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "app/profile/dataset_setup.hpp"
#include "config/cli.hpp"
#include "dataset/custom_loader.hpp"

namespace inferperf::app {
namespace {

// `profile -m x` with the file (when given) and `extra`.
config::CliOutcome parse(const std::filesystem::path& file, const std::string& type,
                         std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile", "-m", "x", "--use-server-token-count"};
  if (!file.empty()) {
    args.insert(args.end(), {"--input-file", file.string(), "--custom-dataset-type", type});
  }
  args.insert(args.end(), extra.begin(), extra.end());
  auto o = config::parse_command_line(args);
  EXPECT_EQ(o.action, config::CliOutcome::Action::kProfile) << o.message;
  return o;
}

class EntryCap : public ::testing::Test {
 protected:
  void SetUp() override {
    // Five sessions over seven lines: s1 and s2 continue further down the file.
    write(multi_, {R"({"session_id":"s1","turns":[{"text":"a"}]})",
                   R"({"session_id":"s2","turns":[{"text":"b"}]})",
                   R"({"session_id":"s1","turns":[{"text":"c"}]})",
                   R"({"session_id":"s3","turns":[{"text":"d"}]})",
                   R"({"session_id":"s2","turns":[{"text":"e"}]})",
                   R"({"session_id":"s4","turns":[{"text":"f"}]})",
                   R"({"session_id":"s5","turns":[{"text":"g"}]})"});
    write(trace_, {R"({"timestamp":100,"input_length":8,"output_length":2})",
                   R"({"timestamp":200,"input_length":8,"output_length":2})",
                   R"({"timestamp":300,"input_length":8,"output_length":2})"});
    write(pool_, {R"({"text":"x"})", R"({"text":"y"})"});
  }
  static void write(const std::filesystem::path& file, const std::vector<std::string>& lines) {
    std::ofstream out(file);
    for (const auto& l : lines) out << l << "\n";
  }
  static std::vector<std::string> sessions(const std::filesystem::path& file,
                                           const std::string& type,
                                           std::vector<std::string> extra) {
    auto p =
        prepare_dataset(parse(file, type, std::move(extra)).config, core::RngFactory(1), nullptr);
    EXPECT_TRUE(p.ok()) << p.error().message;
    std::vector<std::string> ids;
    if (p.ok())
      for (const auto& c : p->dataset.conversations) ids.push_back(c.session_id);
    return ids;
  }
  test_files::ScratchDir dir_{"entry-cap"};
  std::filesystem::path multi_ = dir_.path() / "multi.jsonl";
  std::filesystem::path trace_ = dir_.path() / "trace.jsonl";
  std::filesystem::path pool_ = dir_.path() / "pool.jsonl";
};

TEST_F(EntryCap, ATypedCountKeepsTheFirstConversationsInFileOrder) {
  using V = std::vector<std::string>;
  EXPECT_EQ(sessions(multi_, "multi_turn", {"--num-dataset-entries", "2"}), (V{"s1", "s2"}));
  EXPECT_EQ(sessions(multi_, "multi_turn", {"--request-count", "3"}), (V{"s1", "s2", "s3"}));
  EXPECT_EQ(sessions(multi_, "multi_turn", {"--num-conversations", "4"}),
            (V{"s1", "s2", "s3", "s4"}));
  // --num-dataset-entries wins over the request count.
  EXPECT_EQ(sessions(multi_, "multi_turn", {"--num-dataset-entries", "1", "--request-count", "4"}),
            (V{"s1"}));
  EXPECT_EQ(sessions(multi_, "multi_turn", {"--num-dataset-entries", "9"}).size(), 5u);
  // Merged sessions keep all their turns.
  auto p = prepare_dataset(parse(multi_, "multi_turn", {"--num-dataset-entries", "2"}).config,
                           core::RngFactory(1), nullptr);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->dataset.conversations.at(0).turns.size(), 2u);
  EXPECT_EQ(p->dataset.conversations.at(1).turns.size(), 2u);
}

TEST_F(EntryCap, NothingTypedKeepsEveryConversation) {
  EXPECT_EQ(sessions(multi_, "multi_turn", {}).size(), 5u);
  EXPECT_EQ(sessions(trace_, "mooncake_trace", {"--concurrency", "2"}).size(), 3u);
}

// A trace on a fixed schedule replays its first N sessions (after the offset window).
TEST_F(EntryCap, AFixedScheduleTraceKeepsItsFirstSessions) {
  auto p = prepare_dataset(
      parse(trace_, "mooncake_trace", {"--fixed-schedule", "--num-dataset-entries", "2"}).config,
      core::RngFactory(1), nullptr);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(p->dataset.conversations.size(), 2u);
  EXPECT_EQ(p->dataset.conversations[1].turns.front().timestamp_ms, 200.0);
  auto window = prepare_dataset(
      parse(trace_, "mooncake_trace",
            {"--fixed-schedule", "--fixed-schedule-start-offset", "150", "--request-count", "1"})
          .config,
      core::RngFactory(1), nullptr);
  ASSERT_TRUE(window.ok()) << window.error().message;
  ASSERT_EQ(window->dataset.conversations.size(), 1u);
  EXPECT_EQ(window->dataset.conversations[0].turns.front().timestamp_ms, 200.0);
}

// As AIPerf's random_pool: the count is how many conversations are drawn, 100 when untyped.
TEST_F(EntryCap, RandomPoolDrawsTheCount) {
  EXPECT_EQ(sessions(pool_, "random_pool", {}).size(), 100u);
  EXPECT_EQ(sessions(pool_, "random_pool", {"--request-count", "7"}).size(), 7u);
}

// Children (dag_jsonl / weka_trace spawns) go with their root and are renumbered.
TEST(EntryCapFilter, ChildrenFollowTheirRoot) {
  dataset::Dataset ds;
  for (const char* id : {"r1", "c1", "r2", "c2", "r3"}) {
    dataset::Conversation c;
    c.session_id = id;
    c.child = id[0] == 'c';
    ds.conversations.push_back(std::move(c));
  }
  ds.conversations[0].spawns.push_back(dataset::ChildLink{0, 1, 0.0, std::nullopt});
  ds.conversations[2].spawns.push_back(dataset::ChildLink{0, 3, 0.0, std::nullopt});
  EXPECT_EQ(dataset::keep_first_conversations(ds, 2), 3u);
  ASSERT_EQ(ds.conversations.size(), 4u);
  EXPECT_EQ(ds.conversations[3].session_id, "c2");
  EXPECT_EQ(ds.conversations[2].spawns.at(0).child, 3u);
  EXPECT_EQ(dataset::keep_first_conversations(ds, 1), 2u);
  ASSERT_EQ(ds.conversations.size(), 2u);
  EXPECT_EQ(ds.conversations[1].session_id, "c1");
  EXPECT_EQ(ds.conversations[0].spawns.at(0).child, 1u);
}

TEST(EntryCapWarning, DelayCapWithoutAnInputFileWarnsOnce) {
  auto count = [](const config::CliOutcome& o) {
    return std::count_if(o.config.warnings.begin(), o.config.warnings.end(),
                         [](const std::string& w) {
                           return w.find("--inter-turn-delay-cap-seconds") != std::string::npos;
                         });
  };
  EXPECT_EQ(count(parse({}, "", {"--inter-turn-delay-cap-seconds", "5"})), 1);
  EXPECT_EQ(count(parse({}, "", {})), 0);
  // With a file, the loader warns when its type has no delays to cap.
  EXPECT_EQ(count(parse("t.jsonl", "dag_jsonl", {"--inter-turn-delay-cap-seconds", "5"})), 0);
}

}  // namespace
}  // namespace inferperf::app
