// The dataset types AIPerf 0.11 added (dag_jsonl, sagemaker_data_capture, speed_bench_*), the
// prefix-structure synthesis multipliers with exact values, the per-turn delay cap, and the
// detection of compact inputs.json files and raw_payload folders.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <set>
#include <string>

#include "config/cli_areas.hpp"
#include "dataset/custom_loader.hpp"
#include "dataset/prompt_blocks.hpp"
#include "dataset/trace_synthesis.hpp"
#include "scratch_dir.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
using Ids = std::vector<std::int64_t>;

const fs::path kFixtures = fs::path(INFERPERF_SOURCE_DIR) / "tests/data/dataset_types";

class DatasetTypes : public ::testing::Test {
 protected:
  fs::path write(const std::string& content, const std::string& name) {
    return scratch_.write(content, name);
  }
  core::Result<CustomDataset> load(const fs::path& p, std::optional<std::string> type = {},
                                   CustomLoadOptions o = {}) {
    o.path = p;
    o.type = std::move(type);
    o.seed = 7;
    return load_custom_dataset(o, rng_);
  }
  ScratchDir scratch_{"ip-dstypes-"};
  std::mt19937_64 rng_{1};
};

// --- synthesis -----------------------------------------------------------------------------

TEST(TraceSynthesis, PrefixAndPromptMultipliersFollowAiperf) {
  std::vector<PrefixRecord> rows = {{{1, 2}, 10}, {{1, 3}, 10}};
  SynthesisOptions syn;
  syn.prefix_len_multiplier = 2.0;
  syn.prompt_len_multiplier = 1.5;
  ASSERT_FALSE(restructure_prefixes(rows, syn, 4, 1));
  // Shared prefix [1] -> [2, 3] (id * 2 + 0..1); own prompt 6 -> 9 tokens over 3 fresh ids
  // counted from (largest shared id + 1) * 2 = 4.
  EXPECT_EQ(rows[0].hash_ids, (Ids{2, 3, 5, 6, 7}));
  EXPECT_EQ(rows[1].hash_ids, (Ids{2, 3, 8, 9, 10}));
  EXPECT_EQ(rows[0].input_length, 17);
  EXPECT_EQ(rows[1].input_length, 17);
}

TEST(TraceSynthesis, ShorterPrefixKeepsItsFirstBlocks) {
  std::vector<PrefixRecord> rows = {{{1, 2, 3, 4, 9}, 18}, {{1, 2, 3, 4, 8}, 20}, {{7}, 3}};
  SynthesisOptions syn;
  syn.prefix_len_multiplier = 0.5;
  ASSERT_FALSE(restructure_prefixes(rows, syn, 4, 1));
  // 2 of 4 shared blocks; the own 2 tokens go on a fresh id after the largest shared one (4).
  EXPECT_EQ(rows[0].hash_ids, (Ids{1, 2, 6}));
  EXPECT_EQ(rows[0].input_length, 10);
  EXPECT_EQ(rows[1].hash_ids, (Ids{1, 2, 7}));
  EXPECT_EQ(rows[1].input_length, 12);
  // No shared prefix: AIPerf still counts one block of prefix length; id 7 was not shared, so
  // the row's own tokens move to a fresh id.
  EXPECT_EQ(rows[2].hash_ids, (Ids{8}));
  EXPECT_EQ(rows[2].input_length, 7);
}

TEST(TraceSynthesis, RootMultiplierMovesRowsToIndependentTrees) {
  std::vector<PrefixRecord> rows;
  for (int i = 0; i < 40; ++i) rows.push_back({{1, 2, 100 + i}, 10});
  SynthesisOptions syn;
  syn.prefix_root_multiplier = 3;
  auto again = rows;
  ASSERT_FALSE(restructure_prefixes(rows, syn, 4, 5));
  ASSERT_FALSE(restructure_prefixes(again, syn, 4, 5));
  std::set<std::int64_t> roots;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].hash_ids, again[i].hash_ids) << "deterministic in the seed";
    EXPECT_EQ(rows[i].input_length, 10);
    // Ids 1, 2 shared; fresh ids 4..43 (after the largest shared id + 1); tree t adds t * 44.
    const std::int64_t offset = rows[i].hash_ids[0] - 1;
    EXPECT_TRUE(offset == 0 || offset == 44 || offset == 88) << offset;
    EXPECT_EQ(rows[i].hash_ids[1], 2 + offset);
    EXPECT_EQ(rows[i].hash_ids[2], 4 + static_cast<std::int64_t>(i) + offset);
    roots.insert(rows[i].hash_ids[0]);
  }
  EXPECT_EQ(roots, (std::set<std::int64_t>{1, 45, 89}));
}

TEST(TraceSynthesis, RowShorterThanItsSharedPrefixIsAnError) {
  std::vector<PrefixRecord> rows = {{{1, 2}, 5}, {{1, 2}, 5}};
  SynthesisOptions syn;
  syn.prefix_len_multiplier = 2.0;
  auto e = restructure_prefixes(rows, syn, 4, 1);
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("row 0: input_length 5 is shorter than its 2 shared prefix block(s)"),
            std::string::npos)
      << *e;
}

TEST(TraceSynthesis, OutputMultiplierRoundsHalfToEvenThenCaps) {
  SynthesisOptions syn;
  syn.output_len_multiplier = 1.5;
  EXPECT_EQ(synthesized_output_length(2, syn), 3);
  EXPECT_EQ(synthesized_output_length(3, syn), 4);  // 4.5 -> 4
  EXPECT_EQ(synthesized_output_length(5, syn), 8);  // 7.5 -> 8
  syn.max_osl = 6;
  EXPECT_EQ(synthesized_output_length(5, syn), 6);
  syn.output_len_multiplier = 0.0;
  EXPECT_EQ(synthesized_output_length(5, syn), 1);
}

TEST_F(DatasetTypes, MooncakeRowsAreReshapedAsAWhole) {
  const auto p = write(
      "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [1, 2]}\n"
      "{\"timestamp\": 9, \"input_length\": 10, \"output_length\": 3, \"hash_ids\": [1, 3]}\n"
      "{\"timestamp\": 20, \"input_length\": 6, \"output_length\": 4}\n",
      "m.jsonl");
  CustomLoadOptions o;
  o.block_size = 4;
  o.synthesis.prefix_len_multiplier = 2.0;
  o.synthesis.prompt_len_multiplier = 1.5;
  o.synthesis.output_len_multiplier = 1.5;
  auto r = load(p, {}, o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].turns[0].synthesized->hash_ids, (Ids{2, 3, 5, 6, 7}));
  EXPECT_EQ(c[1].turns[0].synthesized->hash_ids, (Ids{2, 3, 8, 9, 10}));
  EXPECT_EQ(c[0].turns[0].known_input_tokens(), 17);
  EXPECT_EQ(*c[0].turns[0].max_tokens, 3);
  EXPECT_EQ(*c[1].turns[0].max_tokens, 4);
  EXPECT_EQ(*c[2].turns[0].max_tokens, 6);
  EXPECT_EQ(c[2].turns[0].known_input_tokens(), 9);  // no hash ids: 6 x 1.5
  // The stretched prefix is one text in both rows.
  const std::string a = materialize(r->dataset, c[0].turns[0]).text;
  const std::string b = materialize(r->dataset, c[1].turns[0]).text;
  const std::string first = r->dataset.blocks->find(2)->text;
  const std::size_t shared = first.size() + 1 + r->dataset.blocks->find(3)->text.size();
  EXPECT_EQ(a.substr(0, first.size()), first);
  EXPECT_EQ(a.substr(0, shared), b.substr(0, shared));
  EXPECT_NE(a, b);
}

TEST_F(DatasetTypes, PrefixMultipliersAreRefusedWhereTheyCannotApply) {
  const auto dag = kFixtures / "agents.dag.jsonl";
  CustomLoadOptions o;
  o.synthesis.prefix_root_multiplier = 2;
  auto r = load(dag, "dag_jsonl", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "--synthesis-*");
  EXPECT_NE(r.error().message.find("dag_jsonl is not one"), std::string::npos);
  auto s = load(kFixtures / "capture.jsonl", "sagemaker_data_capture", o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("verbatim"), std::string::npos) << s.error().message;
}

// --- dag_jsonl -----------------------------------------------------------------------------

TEST_F(DatasetTypes, DagJsonlSpawnsBecomeChildSessions) {
  CustomLoadOptions o;
  o.inter_turn_delay_cap_s = 2.0;
  auto r = load(kFixtures / "agents.dag.jsonl", {}, o);  // detected
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kDagJsonl);
  EXPECT_EQ(r->type_name, "dag_jsonl");
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 5u);
  // Parents first, then their children depth first.
  std::vector<std::string> ids;
  for (const auto& conv : c) ids.push_back(conv.session_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"root", "w1", "w2", "w3", "bg"}));
  EXPECT_FALSE(c[0].child);
  for (std::size_t i = 1; i < c.size(); ++i) EXPECT_TRUE(c[i].child) << i;
  ASSERT_EQ(c[0].spawns.size(), 4u);
  auto link = [&](std::size_t k) { return c[0].spawns[k]; };
  EXPECT_EQ(link(0).after_turn, 0);
  EXPECT_EQ(link(0).child, 1u);
  EXPECT_EQ(link(0).join_turn, 1);
  EXPECT_EQ(link(1).child, 2u);
  EXPECT_EQ(link(1).offset_ms, 40.0) << "the child's first-turn delay";
  EXPECT_EQ(link(2).after_turn, 1);
  EXPECT_EQ(link(2).child, 3u);
  EXPECT_EQ(link(2).join_turn, 3) << "join_at";
  EXPECT_EQ(link(3).after_turn, 3);
  EXPECT_EQ(link(3).child, 4u);
  EXPECT_FALSE(link(3).join_turn) << "a spawn on the last turn runs in the background";
  // Turns: verbatim messages, extras, tools, models; delays capped at 2 s (one clamp).
  const Turn& t0 = c[0].turns[0];
  EXPECT_EQ((*t0.messages)[0]["role"], "system");
  EXPECT_EQ(*t0.max_tokens, 16);
  EXPECT_EQ((*t0.extra)["temperature"], 0.2);
  EXPECT_EQ(*c[0].turns[1].delay_ms, 250.0);
  EXPECT_EQ(*c[0].turns[2].delay_ms, 2000.0);
  EXPECT_EQ(c[0].turns[3].model, "judge");
  EXPECT_TRUE(r->dataset.models_assigned);
  EXPECT_EQ(*c[1].turns[1].delay_ms, 100.0);
  EXPECT_EQ((*c[4].turns[0].tools)[0]["function"]["name"], "log");
  EXPECT_EQ(c[0].context_mode, ContextMode::kDeltasWithoutResponses);
  EXPECT_EQ(r->capped_delays, 1u);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "--inter-turn-delay-cap-seconds 2: capped 1 per-turn delay(s) (longest recorded: "
            "9000.0 ms)");
}

TEST_F(DatasetTypes, DagJsonlWithoutCapWarnsAboutLongDelays) {
  auto r = load(kFixtures / "agents.dag.jsonl", "dag_jsonl");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(*r->dataset.conversations[0].turns[2].delay_ms, 9000.0);
  EXPECT_EQ(r->capped_delays, 0u);
  EXPECT_TRUE(r->warnings.empty());
  const auto p = write(
      "{\"session_id\": \"a\", \"turns\": [{\"messages\": [{\"role\": \"user\", \"content\": "
      "\"x\"}]}, {\"messages\": [{\"role\": \"user\", \"content\": \"y\"}], \"delay\": 61000}]}\n",
      "long.jsonl");
  auto l = load(p, "dag_jsonl");
  ASSERT_TRUE(l.ok()) << l.error().describe();
  ASSERT_EQ(l->warnings.size(), 1u);
  EXPECT_NE(l->warnings[0].find("61000.0 ms (over a minute)"), std::string::npos);
}

TEST_F(DatasetTypes, DagJsonlErrorsNameTheLineAndField) {
  const std::string ok_turn = R"({"messages": [{"role": "user", "content": "x"}]})";
  struct Bad {
    std::string file;
    int line;
    std::string field;
    std::string says;
  };
  const std::vector<Bad> cases = {
      {R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "x"}], )"
       R"("spawns": ["nope"]}]})",
       1, "turns[0].spawns", "'nope' is not a session of the file"},
      {"{\"session_id\": \"a\", \"turns\": [" + ok_turn +
           "]}\n{\"session_id\": \"a\", \"turns\": [" + ok_turn + "]}",
       2, "session_id", "also the session of line 1"},
      {R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "x"}], )"
       R"("forks": ["b"]}]})",
       1, "turns[0].forks", "forks (children that inherit the parent's live history)"},
      {R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "x"}], )"
       R"("temperature": 0.5}]})",
       1, "turns[0].temperature", "other request fields go in 'extra'"},
      {"{\"session_id\": \"a\", \"turns\": [" + ok_turn +
           R"(, {"messages": [{"role": "system", "content": "late"}]}]})",
       1, "turns[1].messages[0]", "first turn only"},
      {R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "x"}], )"
       R"("spawns": [{"children": ["b"], "join_at": 1}]}]})"
       "\n{\"session_id\": \"b\", \"turns\": [" +
           ok_turn + "]}",
       1, "turns[0].spawns.join_at", "must be a later turn of the conversation"},
      {R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "x"}], )"
       R"("spawns": ["b"]}]})"
       "\n"
       R"({"session_id": "b", "turns": [{"messages": [{"role": "user", "content": "x"}], )"
       R"("spawns": ["a"]}]})",
       1, "turns", "spawn cycle"},
      {R"({"session_id": "a", "orchestrator": true, "turns": []})", 1, "orchestrator",
       "orchestrator conversations are not supported"},
  };
  int n = 0;
  for (const auto& c : cases) {
    auto r = load(write(c.file, "bad" + std::to_string(n++) + ".jsonl"), "dag_jsonl");
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_EQ(r.error().line, c.line) << c.file;
    EXPECT_EQ(r.error().field, c.field) << c.file;
    EXPECT_NE(r.error().message.find(c.says), std::string::npos) << r.error().message;
  }
}

// --- sagemaker_data_capture ----------------------------------------------------------------

TEST_F(DatasetTypes, SagemakerCapturesReplayTheirMessagesAtTheirTimes) {
  auto r = load(kFixtures / "capture.jsonl");  // detected
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kSagemakerDataCapture);
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 3u);
  // Sorted by inference time, the first at 0 (JSON and BASE64 payloads alike).
  EXPECT_EQ(*c[0].turns[0].timestamp_ms, 0.0);
  EXPECT_EQ(*c[1].turns[0].timestamp_ms, 2500.0);
  EXPECT_EQ(*c[2].turns[0].timestamp_ms, 5000.0);
  EXPECT_EQ((*c[0].turns[0].messages)[1]["content"], "first");
  EXPECT_EQ((*c[0].turns[0].tools)[0]["function"]["name"], "f");
  EXPECT_EQ(*c[0].turns[0].max_tokens, 12) << "max_completion_tokens";
  EXPECT_EQ(*c[1].turns[0].max_tokens, 7);
  EXPECT_EQ((*c[2].turns[0].messages)[0]["content"], "second");
  for (const auto& conv : c) EXPECT_EQ(conv.context_mode, ContextMode::kMessageArrayWithResponses);
  EXPECT_TRUE(r->has_timestamps);
  EXPECT_TRUE(r->first_record_timed);
  // --synthesis-max-isl reads the captured usage.prompt_tokens; max-osl and speedup apply.
  CustomLoadOptions o;
  o.synthesis.max_isl = 20;
  o.synthesis.max_osl = 10;
  o.synthesis.speedup_ratio = 2.0;
  auto f = load(kFixtures / "capture.jsonl", "sagemaker_data_capture", o);
  ASSERT_TRUE(f.ok()) << f.error().describe();
  ASSERT_EQ(f->dataset.conversations.size(), 2u);
  EXPECT_EQ(f->dropped_rows, 1u);
  EXPECT_EQ(*f->dataset.conversations[0].turns[0].timestamp_ms, 1250.0);
  EXPECT_EQ(*f->dataset.conversations[1].turns[0].max_tokens, 10);
}

TEST_F(DatasetTypes, SagemakerFolderIsSearchedBelow) {
  const std::string line = R"({"captureData": {"endpointInput": {"data": "{\"messages\": )"
                           R"([{\"role\": \"user\", \"content\": \"hi\"}]}", "encoding": )"
                           R"("JSON"}}, "eventMetadata": {"inferenceTime": "%T"}})";
  auto at = [&](const std::string& t) {
    std::string s = line;
    return s.replace(s.find("%T"), 2, t) + "\n";
  };
  write(at("2025-01-01T00:00:03Z"), "cap/2025/01/01/01/b.jsonl");
  write(at("2025-01-01T00:00:01Z"), "cap/2025/01/01/00/a.jsonl");
  auto r = load(scratch_.dir() / "cap");  // detected from the first file below
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kSagemakerDataCapture);
  ASSERT_EQ(r->dataset.conversations.size(), 2u);
  EXPECT_EQ(*r->dataset.conversations[1].turns[0].timestamp_ms, 2000.0);
  EXPECT_EQ(r->lines, 2u);
}

TEST_F(DatasetTypes, SagemakerErrors) {
  struct Bad {
    std::string row;
    std::string field;
    std::string says;
  };
  const std::vector<Bad> cases = {
      {R"({"captureData": {"endpointInput": {"data": "{\"prompt\": \"x\"}", "encoding": "JSON"}}, )"
       R"("eventMetadata": {"inferenceTime": "2025-01-01T00:00:00Z"}})",
       "captureData.endpointInput.data", "only OpenAI-compatible chat requests"},
      {R"({"captureData": {"endpointInput": {"data": "a,b", "encoding": "CSV"}}, )"
       R"("eventMetadata": {"inferenceTime": "2025-01-01T00:00:00Z"}})",
       "captureData.endpointInput.encoding", "\"CSV\" is not supported"},
      {R"({"captureData": {"endpointInput": {"data": "{}", "encoding": "JSON"}}, )"
       R"("eventMetadata": {"inferenceTime": "yesterday"}})",
       "eventMetadata.inferenceTime", "not an ISO-8601 time"},
      {R"({"captureData": {"endpointInput": {"data": "%%%", "encoding": "BASE64"}}, )"
       R"("eventMetadata": {"inferenceTime": "2025-01-01T00:00:00Z"}})",
       "captureData.endpointInput.data", "not valid base64"},
  };
  int n = 0;
  for (const auto& c : cases) {
    auto r =
        load(write(c.row + "\n", "s" + std::to_string(n++) + ".jsonl"), "sagemaker_data_capture");
    ASSERT_FALSE(r.ok()) << c.row;
    EXPECT_EQ(r.error().line, 1);
    EXPECT_EQ(r.error().field, c.field) << r.error().message;
    EXPECT_NE(r.error().message.find(c.says), std::string::npos) << r.error().message;
  }
}

// --- speed_bench_* -------------------------------------------------------------------------

std::string speed_row(const std::string& id, const std::string& category,
                      const std::string& content) {
  return ojson{{"question_id", id},
               {"category", category},
               {"messages", {{{"role", "user"}, {"content", content}}}}}
             .dump() +
         "\n";
}

TEST_F(DatasetTypes, SpeedBenchSplitsAndCategories) {
  const std::string a(32, 'a'), b(32, 'b'), c(32, 'c');
  const auto p = write(speed_row(a, "coding", "Write a sort") + speed_row(b, "math", "2+2?") +
                           speed_row(c, "coding", "Fix the bug"),
                       "qualitative.jsonl");
  auto all = load(p);  // the file name selects the split
  ASSERT_TRUE(all.ok()) << all.error().describe();
  EXPECT_EQ(all->type, CustomType::kSpeedBench);
  EXPECT_EQ(all->type_name, "speed_bench_qualitative");
  ASSERT_EQ(all->dataset.conversations.size(), 3u);
  EXPECT_EQ(all->dataset.conversations[1].session_id, b);
  EXPECT_EQ(all->dataset.conversations[1].turns[0].text, "2+2?");
  EXPECT_EQ(all->dataset.conversations[1].turns[0].role, "user");
  auto coding = load(p, "speed_bench_coding");
  ASSERT_TRUE(coding.ok()) << coding.error().describe();
  ASSERT_EQ(coding->dataset.conversations.size(), 2u);
  EXPECT_EQ(coding->dataset.conversations[1].turns[0].text, "Fix the bug");
  auto none = load(p, "speed_bench_throughput_1k_mixed");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no row has category 'mixed'"), std::string::npos);
  // Another name: detection asks for the flag; the withheld-data placeholder is refused.
  auto other = load(write(speed_row(a, "qa", "Why?"), "mine.jsonl"));
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("SPEED-Bench row"), std::string::npos);
  auto placeholder = load(
      write(speed_row(a, "qa",
                      "FULL BENCHMARK DATA SHOULD BE FETCHED FROM THE SOURCE USING SPECDEC_BENCH"),
            "p.jsonl"),
      "speed_bench_qa");
  ASSERT_FALSE(placeholder.ok());
  EXPECT_EQ(placeholder.error().field, "messages[0].content");
}

TEST(DatasetTypeNames, EveryCliChoiceIsAKnownType) {
  const auto cli = config::custom_dataset_type_choices();
  EXPECT_EQ(cli, all_type_names());
  EXPECT_EQ(cli.size(), 12u + 32u);
  for (const auto& name : cli) EXPECT_TRUE(type_from_name(name)) << name;
  EXPECT_FALSE(type_from_name("speed_bench"));
  EXPECT_FALSE(type_from_name("speed_bench_throughput_4k"));
}

// --- inputs_json / raw_payload detection ----------------------------------------------------

TEST_F(DatasetTypes, CompactInputsJsonAndRawPayloadFoldersAreDetected) {
  const auto p =
      write(R"({"data": [{"session_id": "s1", "payloads": [{"model": "m", "messages": []}, )"
            R"({"model": "m", "messages": [], "max_tokens": 5}]}]})",
            "inputs.json");
  auto r = load(p);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kInputsJson);
  ASSERT_EQ(r->dataset.conversations.size(), 1u);
  EXPECT_EQ(r->dataset.conversations[0].session_id, "s1");
  EXPECT_EQ(*r->dataset.conversations[0].turns[1].max_tokens, 5);
  write(R"({"model": "m", "messages": [{"role": "user", "content": "a"}]})"
        "\n",
        "bodies/one.jsonl");
  auto f = load(scratch_.dir() / "bodies");
  ASSERT_TRUE(f.ok()) << f.error().describe();
  EXPECT_EQ(f->type, CustomType::kRawPayload);
  EXPECT_EQ((*f->dataset.conversations[0].turns[0].payload)["messages"][0]["content"], "a");
}

TEST_F(DatasetTypes, RawPayloadOutputLengthIsReadFromTheKeyItIsWrittenBackTo) {
  const auto p = write(R"({"messages": [], "max_completion_tokens": 10, "max_tokens": 5})"
                       "\n"
                       R"({"messages": [], "max_completion_tokens": 9})"
                       "\n"
                       R"({"messages": [], "max_tokens": "many", "max_completion_tokens": 9})"
                       "\n"
                       R"({"prompt": "x", "model": "m", "parameters": {"max_new_tokens": 3}})"
                       "\n",
                       "bodies.jsonl");
  auto r = load(p, "raw_payload");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(*c[0].turns[0].max_tokens, 5) << "max_tokens is the key the builder rewrites first";
  EXPECT_EQ(*c[1].turns[0].max_tokens, 9);
  EXPECT_FALSE(c[2].turns[0].max_tokens) << "a key that is not a count leaves the body alone";
  EXPECT_EQ(*c[3].turns[0].max_tokens, 3);
}

}  // namespace
}  // namespace inferperf::dataset
