// weka_trace: root and child conversations, spawn/join placement, delta segments and their token
// counts, timing, model mapping, folders, filters and errors naming the file and field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "dataset/custom_loader.hpp"
#include "dataset/prompt_blocks.hpp"
#include "scratch_dir.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;

// The example trace of trace-formats §4.
constexpr const char* kExample = R"({"id": "tr_42", "models": ["big", "small"], "block_size": 64,
 "hash_id_scope": "local", "tool_tokens": 0, "system_tokens": 0,
 "requests": [
  {"t": 0.0, "type": "s", "model": "big", "in": 200, "out": 30, "hash_ids": [1, 2, 3],
   "stop": "tool_use", "api_time": 2.1},
  {"t": 3.0, "type": "subagent", "agent_id": "agent_001", "subagent_type": "Explore",
   "duration_ms": 4000, "total_tokens": 900, "tool_use_count": 2, "status": "completed",
   "models": ["small"],
   "requests": [{"t": 3.2, "type": "n", "model": "small", "in": 128, "out": 20,
                 "hash_ids": [50, 51]}]},
  {"t": 8.5, "type": "s", "model": "big", "in": 330, "out": 25, "hash_ids": [1, 2, 3, 4, 5],
   "input_types": ["tool_result"], "think_time": 0.4, "api_time": 1.7}]})";

class WekaLoader : public ::testing::Test {
 protected:
  fs::path dir() { return scratch_.dir(); }
  fs::path write(const std::string& content, const std::string& name = "trace.json") {
    return scratch_.write(content, name);
  }
  core::Result<CustomDataset> load(const fs::path& p, CustomLoadOptions o = {}) {
    o.path = p;
    if (!o.type) o.type = "weka_trace";
    o.seed = 42;
    return load_custom_dataset(o, rng_);
  }
  ScratchDir scratch_{"ip-weka-"};
  std::mt19937_64 rng_{1};
};

std::size_t weka_words(const std::string& s) {
  std::istringstream in(s);
  std::size_t n = 0;
  for (std::string w; in >> w;) ++n;
  return n;
}

// The messages a turn sends: (role, content) pairs.
std::vector<std::pair<std::string, std::string>> messages(const CustomDataset& d, std::size_t c,
                                                          std::size_t t) {
  const Turn m = materialize(d.dataset, d.dataset.conversations[c].turns[t]);
  std::vector<std::pair<std::string, std::string>> out;
  if (!m.messages) return out;
  for (const auto& msg : *m.messages)
    out.emplace_back(msg["role"].get<std::string>(), msg["content"].get<std::string>());
  return out;
}

TEST_F(WekaLoader, SpecExampleBecomesARootAndAJoinedChild) {
  CustomLoadOptions o;
  o.models = {"m-main", "m-sub"};
  auto r = load(write(kExample), o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& convs = r->dataset.conversations;
  ASSERT_EQ(convs.size(), 2u);
  EXPECT_EQ(r->block_size, 64);
  EXPECT_TRUE(r->has_timestamps);
  EXPECT_TRUE(r->first_record_timed);
  const Conversation& root = convs[0];
  const Conversation& child = convs[1];
  EXPECT_EQ(root.session_id, "tr_42");
  EXPECT_FALSE(root.child);
  EXPECT_EQ(root.context_mode, ContextMode::kDeltasWithResponses);
  EXPECT_EQ(child.session_id, "tr_42::sa:agent_001");
  EXPECT_TRUE(child.child);
  ASSERT_EQ(root.turns.size(), 2u);
  ASSERT_EQ(child.turns.size(), 1u);
  ASSERT_EQ(root.spawns.size(), 1u);
  EXPECT_EQ(root.spawns[0].after_turn, 0);
  EXPECT_EQ(root.spawns[0].child, 1u);
  EXPECT_DOUBLE_EQ(root.spawns[0].offset_ms, 3200.0);  // first inner request 3.2 s after turn 0
  EXPECT_EQ(root.spawns[0].join_turn, 1) << "the subagent ends at 7.0 s, turn 1 starts at 8.5 s";

  // Timing and output lengths.
  EXPECT_EQ(root.turns[0].timestamp_ms, 0.0);
  EXPECT_EQ(root.turns[1].timestamp_ms, 8500.0);
  EXPECT_EQ(root.turns[1].delay_ms, 8500.0);
  EXPECT_EQ(root.turns[0].max_tokens, 30);
  EXPECT_EQ(root.turns[1].max_tokens, 25);
  EXPECT_EQ(child.turns[0].max_tokens, 20);
  EXPECT_EQ(child.turns[0].timestamp_ms, 3200.0);
  // Models: the main model to the first --model, the other to the second.
  EXPECT_EQ(root.turns[0].model, "m-main");
  EXPECT_EQ(child.turns[0].model, "m-sub");
  EXPECT_TRUE(r->dataset.models_assigned);

  // Turn 0: one user segment of 3 blocks and an 8-token tail (no tool/system prefix).
  auto t0 = messages(*r, 0, 0);
  ASSERT_EQ(t0.size(), 1u);
  EXPECT_EQ(t0[0].first, "user");
  EXPECT_EQ(weka_words(t0[0].second), 200u);
  EXPECT_EQ(root.turns[0].known_input_tokens(), 200);
  // Turn 1: LCP 3 blocks; ceil(30/64) = 1 new block is the assistant's, the other plus the tail
  // that brings the context to 330 tokens is the user's.
  EXPECT_FALSE(root.turns[1].reset_context);
  auto t1 = messages(*r, 0, 1);
  ASSERT_EQ(t1.size(), 2u);
  EXPECT_EQ(t1[0].first, "assistant");
  EXPECT_EQ(weka_words(t1[0].second), 64u);
  EXPECT_EQ(t1[1].first, "user");
  EXPECT_EQ(weka_words(t1[1].second), 66u);
  EXPECT_EQ(root.turns[0].known_input_tokens() + root.turns[1].known_input_tokens(), 330);
  // The child: one user segment of its two blocks.
  auto c0 = messages(*r, 1, 0);
  ASSERT_EQ(c0.size(), 1u);
  EXPECT_EQ(weka_words(c0[0].second), 128u);
}

TEST_F(WekaLoader, SystemSegmentAndReset) {
  auto r = load(write(R"({"id": "a", "block_size": 4, "tool_tokens": 5, "system_tokens": 2,
    "requests": [
      {"t": 1.0, "type": "n", "in": 18, "out": 3, "hash_ids": [1, 2, 3, 4]},
      {"t": 2.0, "type": "n", "in": 16, "out": 3, "hash_ids": [1, 2, 9, 8]},
      {"t": 1.5, "type": "n", "in": 16, "out": 3, "hash_ids": [1, 2, 9, 8]}]})"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& c = r->dataset.conversations[0];
  // Turn 0: ceil(7/4) = 2 system blocks, then 2 user blocks and a 2-token tail.
  auto t0 = messages(*r, 0, 0);
  ASSERT_EQ(t0.size(), 2u);
  EXPECT_EQ(t0[0].first, "system");
  EXPECT_EQ(weka_words(t0[0].second), 8u);
  EXPECT_EQ(t0[1].first, "user");
  EXPECT_EQ(weka_words(t0[1].second), 10u);
  // Turn 1 diverges inside the user segment sent: the whole context is sent again.
  EXPECT_TRUE(c.turns[1].reset_context);
  auto t1 = messages(*r, 0, 1);
  ASSERT_EQ(t1.size(), 3u);
  EXPECT_EQ(t1[0].first, "system");
  EXPECT_EQ(t1[0].second, t0[0].second);
  EXPECT_EQ(t1[1].first, "assistant");  // ceil(3/4) = 1 block of the 2 new ones
  EXPECT_EQ(weka_words(t1[1].second), 4u);
  EXPECT_EQ(t1[2].first, "user");
  EXPECT_EQ(weka_words(t1[2].second), 4u);
  EXPECT_EQ(c.turns[1].known_input_tokens(), 16);
  // Turn 2 repeats turn 1's blocks: no new block, one token of new user text; its trace time is
  // earlier than turn 1's, so the delay is clamped at 0.
  EXPECT_FALSE(c.turns[2].reset_context);
  auto t2 = messages(*r, 0, 2);
  ASSERT_EQ(t2.size(), 1u);
  EXPECT_EQ(weka_words(t2[0].second), 1u);
  EXPECT_EQ(c.turns[2].delay_ms, 0.0);
}

TEST_F(WekaLoader, SpawnJoinPlacementBackgroundAndDropped) {
  CustomDataset d;
  auto r = load(write(R"({"id": "p", "block_size": 2, "requests": [
      {"t": 0.5, "type": "subagent", "agent_id": "early",
       "requests": [{"t": 0.6, "type": "n", "in": 2, "out": 1}]},
      {"t": 1.0, "type": "n", "in": 2, "out": 1},
      {"t": 2.0, "type": "n", "in": 2, "out": 1},
      {"t": 2.5, "type": "subagent", "agent_id": "bg", "duration_ms": null,
       "status": "async_launched",
       "requests": [{"t": 0.5, "type": "n", "in": 2, "out": 1, "api_time": 10.0}]},
      {"t": 2.6, "type": "subagent", "agent_id": "nodur",
       "requests": [{"t": 2.7, "type": "n", "in": 2, "out": 1, "api_time": 1.0},
                    {"t": 3.0, "type": "n", "in": 4, "out": 1, "api_time": 0.5}]},
      {"t": 3.0, "type": "n", "in": 2, "out": 1},
      {"t": 3.5, "type": "n", "in": 2, "out": 1}]})"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& convs = r->dataset.conversations;
  ASSERT_EQ(convs.size(), 3u) << "the subagent before the first parent turn is dropped";
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("early"), std::string::npos);
  const auto& spawns = convs[0].spawns;
  ASSERT_EQ(spawns.size(), 2u);
  // "bg": inner t 0.5 < 2.5 is relative (3.0 absolute), ends at 13.0: nothing joins it.
  EXPECT_EQ(convs[spawns[0].child].session_id, "p::sa:bg");
  EXPECT_EQ(spawns[0].after_turn, 1);
  EXPECT_FALSE(spawns[0].join_turn.has_value());
  EXPECT_DOUBLE_EQ(spawns[0].offset_ms, 1000.0);
  EXPECT_EQ(convs[spawns[0].child].turns[0].timestamp_ms, 3000.0);
  // "nodur": ends at max(2.7 + 1.0, 3.0 + 0.5) = 3.7 s, after the last parent turn (3.5 s).
  EXPECT_EQ(convs[spawns[1].child].session_id, "p::sa:nodur");
  EXPECT_EQ(spawns[1].after_turn, 1);
  EXPECT_FALSE(spawns[1].join_turn.has_value());
  EXPECT_EQ(convs[spawns[1].child].turns.size(), 2u);
  EXPECT_NEAR(*convs[spawns[1].child].turns[1].delay_ms, 300.0, 1e-9);
}

TEST_F(WekaLoader, JoinIsTheFirstParentTurnAfterTheEnd) {
  auto r = load(write(R"({"id": "p", "block_size": 2, "requests": [
      {"t": 1.0, "type": "n", "in": 2, "out": 1},
      {"t": 1.5, "type": "subagent", "agent_id": "x", "duration_ms": 1000,
       "requests": [{"t": 1.6, "type": "n", "in": 2, "out": 1}]},
      {"t": 2.0, "type": "n", "in": 2, "out": 1},
      {"t": 2.5, "type": "n", "in": 2, "out": 1},
      {"t": 3.0, "type": "n", "in": 2, "out": 1}]})"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& s = r->dataset.conversations[0].spawns;
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].after_turn, 0);
  EXPECT_EQ(s[0].join_turn, 2) << "ends at exactly 2.5 s";
}

TEST_F(WekaLoader, FolderLoadsSortedFilesWithLocalHashIds) {
  write(R"({"id": "b", "block_size": 2, "requests": [{"t": 5, "type": "n", "in": 2, "out": 1,
          "hash_ids": [7]}]})",
        "d/2.json");
  write(R"({"id": "a", "block_size": 2, "requests": [{"t": 1, "type": "n", "in": 2, "out": 1,
          "hash_ids": [7]}]})",
        "d/1.json");
  write("not json", "d/notes.txt");
  auto r = load(dir() / "d");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& convs = r->dataset.conversations;
  ASSERT_EQ(convs.size(), 2u);
  EXPECT_EQ(convs[0].session_id, "a");
  EXPECT_EQ(convs[1].session_id, "b");
  EXPECT_EQ(r->lines, 2u);
  EXPECT_NE(messages(*r, 0, 0)[0].second, messages(*r, 1, 0)[0].second)
      << "hash id 7 of one file is not hash id 7 of another";
}

TEST_F(WekaLoader, BlockSizePrecedence) {
  const auto p = write(R"({"id": "a", "block_size": 4, "requests": [
      {"t": 0, "type": "n", "in": 8, "out": 1, "hash_ids": [1, 2]}]})");
  auto file = load(p);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->block_size, 4);
  EXPECT_TRUE(file->warnings.empty());
  CustomLoadOptions o;
  o.block_size = 2;
  auto flag = load(p, o);
  ASSERT_TRUE(flag.ok());
  EXPECT_EQ(flag->block_size, 2);
  ASSERT_EQ(flag->warnings.size(), 1u);
  EXPECT_NE(flag->warnings[0].find("block_size is 4"), std::string::npos);
  auto none = load(
      write(R"({"id": "a", "requests": [{"t": 0, "type": "n", "in": 8, "out": 1}]})", "nb.json"));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->block_size, 64);
}

TEST_F(WekaLoader, SynthesisFilters) {
  CustomLoadOptions o;
  o.synthesis.max_isl = 100;
  o.synthesis.max_osl = 5;
  auto r = load(write(R"({"id": "a", "block_size": 2, "requests": [
      {"t": 0, "type": "n", "in": 50, "out": 40},
      {"t": 1, "type": "n", "in": 500, "out": 40},
      {"t": 1.5, "type": "subagent", "agent_id": "s",
       "requests": [{"t": 1.6, "type": "n", "in": 20, "out": 40}]},
      {"t": 2, "type": "n", "in": 60, "out": 2}]})"),
                o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c[0].turns.size(), 2u);
  EXPECT_EQ(r->dropped_rows, 1u);
  EXPECT_EQ(c[0].turns[0].max_tokens, 5);
  EXPECT_EQ(c[0].turns[1].max_tokens, 2);
  EXPECT_EQ(c[0].turns[1].delay_ms, 2000.0);
  EXPECT_EQ(c[1].turns[0].max_tokens, 40) << "children keep their recorded out";
}

TEST_F(WekaLoader, ErrorsNameTheFileAndField) {
  struct Case {
    std::string json, field, message;
  };
  const std::vector<Case> cases = {
      {R"({"id": "a", "requests": [], "extra": 1})", "extra", "unknown field"},
      {R"({"id": "a", "requests": [{"t": 0, "type": "n", "in": 2, "out": 1, "foo": 1}]})",
       "requests[0].foo", "unknown field"},
      {R"({"id": "a", "requests": [{"t": 0, "type": "n", "in": "x", "out": 1}]})", "requests[0].in",
       "must be an integer"},
      {R"({"id": "a", "requests": [{"t": 0, "type": "n", "in": 2, "out": 1, "ttft": 0.1}]})",
       "requests[0].ttft", "unknown field"},
      {R"({"id": "a", "requests": [{"t": 0, "type": "q", "in": 2, "out": 1}]})", "requests[0].type",
       "\"n\" or \"s\""},
      {R"({"id": "a", "requests": [{"t": 0, "type": "n", "out": 1}]})", "requests[0].in",
       "is required"},
      {R"({"id": 3, "requests": []})", "id", "must be a string"},
      {R"({"id": "a", "hash_id_scope": "global", "requests": []})", "hash_id_scope", "local"},
      {R"({"id": "a", "requests": [{"t": 1, "type": "subagent", "agent_id": "x",
          "requests": [{"t": 1, "type": "n", "in": 2, "out": 1, "hash_ids": [1, "2"]}]}]})",
       "requests[0].requests[0].hash_ids[1]", "must be an integer"},
      {R"({"id": "a", "requests": [{"t": 1, "type": "subagent", "agent_id": "x", "color": 1}]})",
       "requests[0].color", "unknown field"},
      {R"({"id": "a", "tool_tokens": 9, "block_size": 4,
          "requests": [{"t": 0, "type": "n", "in": 20, "out": 1, "hash_ids": [1]}]})",
       "requests[0].hash_ids", "needs 3 blocks"},
  };
  for (const auto& c : cases) {
    const auto p = write(c.json, "bad.json");
    auto r = load(p);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_EQ(r.error().file, p.string()) << c.json;
    EXPECT_EQ(r.error().field, c.field) << c.json << ": " << r.error().describe();
    EXPECT_NE(r.error().message.find(c.message), std::string::npos) << r.error().describe();
  }
}

TEST_F(WekaLoader, DuplicateTraceIdAcrossFiles) {
  write(R"({"id": "same", "requests": [{"t": 0, "type": "n", "in": 2, "out": 1}]})", "d/1.json");
  const auto second = write(
      R"({"id": "same", "requests": [{"t": 0, "type": "n", "in": 2, "out": 1}]})", "d/2.json");
  auto r = load(dir() / "d");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, second.string());
  EXPECT_EQ(r.error().field, "id");
  EXPECT_NE(r.error().message.find("1.json"), std::string::npos) << r.error().describe();
}

TEST_F(WekaLoader, DetectedFromASingleJsonFile) {
  CustomLoadOptions o;
  o.type = std::nullopt;
  o.path = write(kExample);
  o.seed = 1;
  auto r = load_custom_dataset(o, rng_);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kWekaTrace);
}

TEST_F(WekaLoader, FixedScheduleOffsetsKeepChildrenWithTheirParents) {
  write(kExample, "d/1.json");
  write(R"({"id": "late", "requests": [{"t": 100, "type": "n", "in": 2, "out": 1}]})", "d/2.json");
  CustomLoadOptions o;
  o.end_offset_ms = 50000;
  auto r = load(dir() / "d", o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->dataset.conversations.size(), 2u);
  EXPECT_EQ(r->dataset.conversations[1].session_id, "tr_42::sa:agent_001");
  EXPECT_EQ(r->dataset.conversations[0].spawns[0].child, 1u);
  o.end_offset_ms.reset();
  o.start_offset_ms = 50000;
  auto late = load(dir() / "d", o);
  ASSERT_TRUE(late.ok()) << late.error().describe();
  ASSERT_EQ(late->dataset.conversations.size(), 1u) << "the child went with its parent";
  EXPECT_EQ(late->dataset.conversations[0].session_id, "late");
}

TEST_F(WekaLoader, SegmentsAreExactWithARealTokenizer) {
  const auto path = fs::path(INFERPERF_SOURCE_DIR) / ".cache/tokenizers/llama3/tokenizer.json";
  ASSERT_TRUE(fs::exists(path)) << path << " is missing: run scripts/fetch-tokenizers.sh";
  auto tok = tokenizer::HfTokenizer::load(path);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  CustomLoadOptions o;
  o.tokenizer = tok->get();
  auto r = load(write(kExample), o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  auto t0 = messages(*r, 0, 0);
  ASSERT_EQ(t0.size(), 1u);
  EXPECT_EQ((*tok)->count(t0[0].second), 200u);
  auto t1 = messages(*r, 0, 1);
  ASSERT_EQ(t1.size(), 2u);
  EXPECT_EQ((*tok)->count(t1[0].second), 64u);
  EXPECT_EQ((*tok)->count(t1[1].second), 66u);
}

}  // namespace
}  // namespace inferperf::dataset
