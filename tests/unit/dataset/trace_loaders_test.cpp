// Trace and payload formats: what each loads into (conversations, turns, prompt lengths, timing),
// prefix sharing through hash ids, exact ISL with real tokenizers, and every validation error
// naming the file, line and field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "core/base64.hpp"
#include "dataset/custom_loader.hpp"
#include "dataset/media.hpp"
#include "dataset/prompt_blocks.hpp"
#include "scratch_dir.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

const fs::path kTraceSource = INFERPERF_SOURCE_DIR;

class TraceLoader : public ::testing::Test {
 protected:
  fs::path dir() { return scratch_.dir(); }
  fs::path write(const std::string& content, const std::string& name = "") {
    return scratch_.write(content,
                          name.empty() ? "t" + std::to_string(counter_++) + ".jsonl" : name);
  }
  core::Result<CustomDataset> load(const fs::path& p, std::optional<std::string> type = {},
                                   CustomLoadOptions o = {}) {
    o.path = p;
    o.type = std::move(type);
    o.seed = 42;
    return load_custom_dataset(o, rng_);
  }
  ScratchDir scratch_{"ip-trace-"};
  std::mt19937_64 rng_{1};
  int counter_ = 0;
};

std::string text_of(const CustomDataset& d, std::size_t c, std::size_t t = 0) {
  return materialize(d.dataset, d.dataset.conversations[c].turns[t]).text;
}

std::size_t words(const std::string& s) {
  std::size_t n = 0;
  bool in = false;
  for (char ch : s) {
    if (ch == ' ') {
      in = false;
    } else if (!in) {
      in = true, ++n;
    }
  }
  return n;
}

TEST_F(TraceLoader, MooncakeFourInputFormsAndSessions) {
  const auto p = write(
      "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 40, \"hash_ids\": [7, 8, 9]}\n"
      "{\"timestamp\": 250.5, \"input_length\": 300, \"output_length\": 12}\n"
      "\n"
      "{\"session_id\": \"u1\", \"timestamp\": 1000, \"text_input\": \"List three primes.\", "
      "\"output_length\": 20}\n"
      "{\"session_id\": \"u1\", \"delay\": 1500, \"text_input\": \"Now three more.\", "
      "\"output_length\": 20}\n"
      "{\"session_id\": \"a9\", \"message_mode\": \"delta\", \"messages\": [{\"role\": \"user\", "
      "\"content\": \"Run ls\"}], \"tools\": [{\"type\": \"function\"}], \"output_length\": 64}\n"
      "{\"timestamp\": 3000, \"payload\": {\"model\": \"m\", \"prompt\": \"Hi\", \"max_tokens\": "
      "8}, \"extra\": {\"ignore_eos\": true}}\n");
  auto r = load(p);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kMooncakeTrace);
  EXPECT_EQ(r->lines, 6u);
  EXPECT_EQ(r->block_size, 512);
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 5u);
  // Without a tokenizer one prompt token is one word.
  EXPECT_EQ(words(text_of(*r, 0)), 1100u);
  EXPECT_EQ(c[0].turns[0].synthesized->hash_ids, (std::vector<std::int64_t>{7, 8, 9}));
  EXPECT_TRUE(c[0].turns[0].text.empty());  // assembled per request
  EXPECT_EQ(*c[0].turns[0].max_tokens, 40);
  EXPECT_EQ(words(text_of(*r, 1)), 300u);
  EXPECT_EQ(*c[1].turns[0].timestamp_ms, 250.5);
  EXPECT_EQ(c[2].session_id, "u1");
  ASSERT_EQ(c[2].turns.size(), 2u);
  EXPECT_EQ(c[2].turns[1].text, "Now three more.");
  EXPECT_EQ(*c[2].turns[1].delay_ms, 1500.0);
  EXPECT_EQ(c[2].context_mode, ContextMode::kDeltasWithoutResponses);
  EXPECT_EQ(c[3].session_id, "a9");
  EXPECT_EQ(c[3].turns[0].messages->size(), 1u);
  EXPECT_EQ(c[3].turns[0].tools->size(), 1u);
  EXPECT_EQ(c[3].context_mode, ContextMode::kDeltasWithoutResponses);
  EXPECT_EQ((*c[4].turns[0].payload)["prompt"], "Hi");
  EXPECT_EQ((*c[4].turns[0].extra)["ignore_eos"], true);
  EXPECT_EQ(c[4].context_mode, ContextMode::kMessageArrayWithResponses);
  EXPECT_TRUE(r->first_record_timed);
  EXPECT_FALSE(r->has_timestamps);  // session a9 has none
}

TEST_F(TraceLoader, SharedHashIdsShareExactPrefixText) {
  const auto p = write(
      "{\"input_length\": 1100, \"hash_ids\": [1, 2, 3]}\n"
      "{\"input_length\": 1500, \"hash_ids\": [1, 2, 4]}\n"
      "{\"input_length\": 2048, \"hash_ids\": [1, 5]}\n"
      "{\"input_length\": 700, \"hash_ids\": [6]}\n");  // prefix-only: 512 shared + 188 fresh
  auto r = load(p);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const std::string a = text_of(*r, 0), b = text_of(*r, 1), c = text_of(*r, 2), d = text_of(*r, 3);
  const auto* b1 = r->dataset.blocks->find(1);
  const auto* b2 = r->dataset.blocks->find(2);
  ASSERT_TRUE(b1 && b2);
  const std::string two = b1->text + " " + b2->text + " ";
  EXPECT_EQ(a.substr(0, two.size()), two);
  EXPECT_EQ(b.substr(0, two.size()), two);
  EXPECT_EQ(c.substr(0, b1->text.size() + 1), b1->text + " ");
  EXPECT_NE(a.substr(two.size(), 40), b.substr(two.size(), 40));  // blocks 3 and 4 differ
  EXPECT_EQ(words(a), 1100u);
  EXPECT_EQ(words(b), 1500u);
  EXPECT_EQ(words(c), 2048u);  // exact tile: two full blocks
  EXPECT_EQ(words(d), 700u);
  EXPECT_EQ(r->dataset.blocks->size(), 6u);
  // The same seed gives byte-identical prompts.
  std::mt19937_64 other{1};
  CustomLoadOptions o;
  o.path = p;
  o.seed = 42;
  auto again = load_custom_dataset(o, other);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(text_of(*again, 1), b);
}

class ExactTraceIsl : public TraceLoader, public ::testing::WithParamInterface<std::string> {};

TEST_P(ExactTraceIsl, SelfContainedRowsCountExactlyInputLength) {
  const auto path = kTraceSource / ".cache/tokenizers" / GetParam() / "tokenizer.json";
  ASSERT_TRUE(fs::exists(path)) << path << " is missing: run scripts/fetch-tokenizers.sh";
  auto tok = tokenizer::HfTokenizer::load(path);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  const auto p = write(
      "{\"input_length\": 1100, \"hash_ids\": [1, 2, 3]}\n"
      "{\"input_length\": 1500, \"hash_ids\": [1, 2, 4]}\n"
      "{\"input_length\": 700, \"hash_ids\": [1]}\n"
      "{\"input_length\": 333}\n"
      "{\"input_length\": 1024, \"hash_ids\": [1, 2]}\n");
  CustomLoadOptions o;
  o.tokenizer = tok->get();
  auto r = load(p, "mooncake_trace", o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const int expected[] = {1100, 1500, 700, 333, 1024};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ((*tok)->count(text_of(*r, i)), static_cast<std::size_t>(expected[i]))
        << GetParam() << " row " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Tokenizers, ExactTraceIsl,
                         ::testing::Values("qwen3", "llama3", "gpt4o", "llama2"));

TEST_F(TraceLoader, SynthesisOptionsReshapeTheTrace) {
  const auto p = write(
      "{\"timestamp\": 1000, \"input_length\": 1100, \"output_length\": 400, \"hash_ids\": [1, "
      "2, 3]}\n"
      "{\"timestamp\": 2000, \"input_length\": 5000, \"output_length\": 10}\n"
      "{\"timestamp\": 3000, \"input_length\": 1200, \"output_length\": 10, \"hash_ids\": [1, "
      "9, 10]}\n");
  CustomLoadOptions o;
  o.synthesis.speedup_ratio = 2.0;
  o.synthesis.max_isl = 4096;
  o.synthesis.max_osl = 64;
  o.synthesis.prompt_len_multiplier = 0.5;
  auto r = load(p, {}, o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 2u);  // the 5000-token row is dropped before scaling
  EXPECT_EQ(r->dropped_rows, 1u);
  EXPECT_EQ(*c[0].turns[0].timestamp_ms, 500.0);
  EXPECT_EQ(*c[1].turns[0].timestamp_ms, 1500.0);
  EXPECT_EQ(*c[0].turns[0].max_tokens, 64);
  EXPECT_EQ(*c[1].turns[0].max_tokens, 10);
  // AIPerf's transform: the shared prefix [1] stays, each row's own part (588 and 688 tokens)
  // halves onto a fresh id counted from the largest shared id.
  EXPECT_EQ(words(text_of(*r, 0)), 512u + 294u);
  EXPECT_EQ(c[0].turns[0].synthesized->hash_ids, (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(c[1].turns[0].synthesized->hash_ids, (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(words(text_of(*r, 1)), 512u + 344u);
  // Block 1 is still shared between the scaled rows.
  const std::string shared = r->dataset.blocks->find(1)->text;
  EXPECT_EQ(text_of(*r, 1).substr(0, shared.size()), shared);
}

TEST_F(TraceLoader, BlockSizeFlagOverridesTheFormatDefaultWithAWarning) {
  const auto p = write("{\"input_length\": 100, \"hash_ids\": [1, 2, 3, 4]}\n");
  CustomLoadOptions o;
  o.block_size = 32;
  auto r = load(p, {}, o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->block_size, 32);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("differs from mooncake_trace's block size 512"), std::string::npos);
  EXPECT_EQ(r->dataset.blocks->find(4)->tokens, 4);
  // At the default 512 the same row does not fit: four ids cannot make 100 tokens.
  auto bad = load(p);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "hash_ids");
  EXPECT_NE(bad.error().message.find("input_length 100 with 4 hash_ids and block size 512"),
            std::string::npos)
      << bad.error().message;
}

TEST_F(TraceLoader, BailianSessionsFollowParentsAndSortByTurn) {
  const auto p = write(
      "{\"chat_id\": 502, \"parent_chat_id\": 501, \"timestamp\": 19.0, \"input_length\": 120, "
      "\"output_length\": 18, \"type\": \"text\", \"turn\": 2, \"hash_ids\": [1, 2, 3, 4, 5, 6, "
      "7, 8]}\n"
      "{\"chat_id\": 501, \"parent_chat_id\": -1, \"timestamp\": 12.25, \"input_length\": 80, "
      "\"output_length\": 30, \"type\": \"text\", \"turn\": 1, \"hash_ids\": [1, 2, 3, 4, 5]}\n"
      "{\"chat_id\": 900, \"timestamp\": 1, \"input_length\": 16, \"output_length\": 1, "
      "\"hash_ids\": [50]}\n"
      "{\"chat_id\": 903, \"parent_chat_id\": 777, \"timestamp\": 2, \"input_length\": 5, "
      "\"output_length\": 1}\n");
  auto r = load(p);  // detected: "type": "text" is a request kind, not a dataset type
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kBailianTrace);
  EXPECT_EQ(r->block_size, 16);
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].session_id, "501");
  ASSERT_EQ(c[0].turns.size(), 2u);
  EXPECT_EQ(*c[0].turns[0].timestamp_ms, 12250.0);
  EXPECT_EQ(*c[0].turns[1].timestamp_ms, 19000.0);
  EXPECT_EQ(c[0].context_mode, ContextMode::kMessageArrayWithResponses);
  EXPECT_EQ(words(text_of(*r, 0, 0)), 80u);
  EXPECT_EQ(words(text_of(*r, 0, 1)), 120u);
  const std::string five = text_of(*r, 0, 0);
  EXPECT_EQ(text_of(*r, 0, 1).substr(0, five.size()), five);  // blocks 1-5 are shared
  EXPECT_EQ(c[2].session_id, "903");  // its parent is not in the file: it is its own root
}

TEST_F(TraceLoader, BurstGptCsvRowsAreTimedSingleTurns) {
  const auto p = write(
      "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
      "5.0,ChatGPT,472,18,490,Conversation log\n"
      "bad,ChatGPT,1,1,2,Conversation log\n"
      "7.5,GPT-4,30,0,30,API log\n",
      "trace.csv");
  auto r = load(p);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kBurstGptTrace);
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(*c[0].turns[0].timestamp_ms, 5000.0);
  EXPECT_EQ(*c[0].turns[0].max_tokens, 18);
  EXPECT_EQ(words(text_of(*r, 0)), 472u);
  EXPECT_FALSE(c[1].turns[0].max_tokens);  // zero response tokens: no max tokens field
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("skipped 1 row(s)"), std::string::npos);
  EXPECT_NE(r->warnings[0].find("line 3"), std::string::npos);
  auto missing = load(write("Timestamp,Request tokens\n1,2\n", "bad.csv"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().field, "Response tokens");
  EXPECT_EQ(missing.error().line, 1);
}

TEST_F(TraceLoader, RawPayloadFileAndFolder) {
  auto file = load(write(
      "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], "
      "\"max_tokens\": 9}\n{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": "
      "\"yo\"}]}\n"));
  ASSERT_TRUE(file.ok()) << file.error().describe();
  EXPECT_EQ(file->type, CustomType::kRawPayload);
  ASSERT_EQ(file->dataset.conversations.size(), 2u);
  EXPECT_EQ(*file->dataset.conversations[0].turns[0].max_tokens, 9);
  write("{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}\n{\"messages\": []}\n",
        "folder/b.jsonl");
  write("{\"messages\": [{\"role\": \"user\", \"content\": \"z\"}]}\n", "folder/a.jsonl");
  write("ignored", "folder/notes.txt");
  auto folder = load(dir() / "folder", "raw_payload");
  ASSERT_TRUE(folder.ok()) << folder.error().describe();
  const auto& c = folder->dataset.conversations;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].session_id, "a");
  EXPECT_EQ(c[1].session_id, "b");
  EXPECT_EQ(c[1].turns.size(), 2u);
  EXPECT_EQ(c[1].context_mode, ContextMode::kMessageArrayWithResponses);
}

TEST_F(TraceLoader, InputsJsonReplaysPayloadsPerSession) {
  const auto p = write(
      "{\n  \"data\": [\n    {\n      \"session_id\": \"s1\",\n      \"payloads\": [\n        "
      "{\"model\": \"m\", \"prompt\": \"a\", \"max_tokens\": 3},\n        {\"model\": \"m\", "
      "\"prompt\": \"b\"}\n      ]\n    }\n  ]\n}",
      "inputs.json");
  auto r = load(p);  // detected from its shape
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kInputsJson);
  ASSERT_EQ(r->dataset.conversations.size(), 1u);
  EXPECT_EQ(r->dataset.conversations[0].session_id, "s1");
  EXPECT_EQ(r->dataset.conversations[0].turns.size(), 2u);
  auto twice =
      load(write("{\n\"data\": [{\"session_id\": \"s\", \"payloads\": [{\"a\": 1}]},\n"
                 "{\"session_id\": \"s\", \"payloads\": [{\"a\": 2}]}]}",
                 "twice.json"));
  ASSERT_TRUE(twice.ok()) << twice.error().describe();
  EXPECT_EQ(twice->dataset.conversations[1].session_id, "s#2");
  ASSERT_EQ(twice->warnings.size(), 1u);
  auto broken =
      load(write("{\n  \"data\": [\n    {\"session_id\": }\n  ]\n}", "x.json"), "inputs_json");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().line, 3);
  EXPECT_NE(broken.error().message.find("invalid JSON at column"), std::string::npos);
}

TEST_F(TraceLoader, BasetenJsonlRowsAreVerbatimTimedAndCarryHints) {
  const auto p = write(
      "{\"timestamp_start_unix_ms\": 1767225600500, \"prompt\": \"def sub(a, b):\", "
      "\"input_tokens\": 6, \"output_tokens\": 0, \"provided_session_id\": \"s-17\", "
      "\"total_hashes\": [9002], \"block_size\": 64}\n"
      "{\"timestamp_start_unix_ms\": 1767225600123, \"prompt\": \"def add(a, b):\", "
      "\"input_tokens\": 6, \"output_tokens\": 24, \"provided_session_id\": \"s-17\", "
      "\"total_hashes\": [9001], \"block_size\": 64, \"duration_e2e_ms\": 410}\n"
      "{\"timestamp_start_unix_ms\": 1767225600200, \"prompt\": \"x\", \"input_tokens\": 1, "
      "\"output_tokens\": 3, \"provided_session_id\": null}\n");
  auto r = load(p);  // detected from its columns
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->type, CustomType::kBasetenTrace);
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].session_id, "s-17");
  ASSERT_EQ(c[0].turns.size(), 2u);
  EXPECT_EQ(c[0].turns[0].text, "def add(a, b):");  // sorted by timestamp
  EXPECT_EQ(*c[0].turns[0].timestamp_ms, 0.0);
  EXPECT_EQ(*c[0].turns[1].timestamp_ms, 377.0);
  EXPECT_EQ(*c[0].turns[1].max_tokens, 1);  // a cancelled row asks for one token
  EXPECT_EQ(c[0].context_mode, ContextMode::kMessageArrayWithResponses);
  EXPECT_EQ((*c[0].turns[0].extra)["min_tokens"], 24);
  EXPECT_EQ((*c[0].turns[0].extra)["hash_ids"], ojson::array({9001}));
  EXPECT_EQ((*c[0].turns[0].extra)["block_size"], 64);
  EXPECT_EQ(*c[1].turns[0].timestamp_ms, 77.0);  // null session: its own conversation
  EXPECT_EQ(c[0].turns[0].synthetic_tokens, 6);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("1 row(s) with output_tokens 0"), std::string::npos);
  CustomLoadOptions o;
  o.baseten_no_min_tokens = true;
  o.baseten_omit_kv_hints = true;
  auto plain = load(p, {}, o);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->dataset.conversations[0].turns[0].extra);
}

TEST_F(TraceLoader, SingleTurnMediaFromFilesUrlsAndDataUris) {
  write(std::string("\x89PNG\r\n", 6), "img/a.png");
  write("RIFF", "clip.wav");
  const auto p = write(
      "{\"text\": \"what is this?\", \"images\": [\"img/a.png\", \"https://x.test/b.jpg\"], "
      "\"image_uuids\": [\"u1\", \"u2\"]}\n"
      "{\"audio\": \"clip.wav\"}\n"
      "{\"video\": \"data:video/mp4;base64,AAAA\", \"text\": \"v\"}\n"
      "{\"audio\": \"mp3,SUQz\"}\n");
  auto r = load(p, "single_turn");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& c = r->dataset.conversations;
  ASSERT_EQ(c.size(), 4u);
  ASSERT_EQ(c[0].turns[0].media.size(), 2u);
  EXPECT_EQ(c[0].turns[0].media[0].url,
            "data:image/png;base64," + core::base64_encode("\x89PNG\r\n"));
  EXPECT_EQ(c[0].turns[0].media[1].url, "https://x.test/b.jpg");
  EXPECT_EQ(c[0].turns[0].media[1].uuid, "u2");
  EXPECT_EQ(c[1].turns[0].text, "");
  EXPECT_EQ(c[1].turns[0].media[0].audio_format, "wav");
  EXPECT_EQ(c[1].turns[0].media[0].audio_data, "UklGRg==");
  EXPECT_EQ(c[2].turns[0].media[0].kind, MediaItem::Kind::kVideo);
  EXPECT_EQ(c[2].turns[0].media[0].url, "data:video/mp4;base64,AAAA");
  EXPECT_EQ(c[3].turns[0].media[0].audio_format, "mp3");
  EXPECT_EQ(c[3].turns[0].media[0].audio_data, "SUQz");
  auto uuids =
      load(write("{\"image\": \"https://x.test/a.png\", \"image_uuids\": [\"a\", \"b\"]}\n"),
           "single_turn");
  ASSERT_FALSE(uuids.ok());
  EXPECT_EQ(uuids.error().field, "image_uuids");
  write("x", "notes.txt");
  auto unknown = load(write("{\"image\": \"notes.txt\"}\n"), "single_turn");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown media type (extension 'txt')"),
            std::string::npos);
}

TEST_F(TraceLoader, ParquetFilesGetAConversionHint) {
  const auto p = write("PAR1....", "trace.parquet");
  auto r = load(p);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("Convert it to JSONL"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("--custom-dataset-type baseten_trace"), std::string::npos);
}

TEST_F(TraceLoader, RandomPoolDrawsOneEntryFromEveryPool) {
  write("{\"text\": \"q1\"}\n{\"text\": \"q2\"}\n", "pools/a_query.jsonl");
  write("{\"texts\": [\"c1\"]}\n", "pools/b_context.jsonl");
  CustomLoadOptions o;
  o.num_conversations = 10;
  auto r = load(dir() / "pools", "random_pool", o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->dataset.conversations.size(), 10u);
  std::set<std::string> firsts;
  for (const auto& c : r->dataset.conversations) {
    firsts.insert(c.turns[0].text);
    EXPECT_EQ(c.turns[0].more_texts, std::vector<std::string>{"c1"});
  }
  EXPECT_EQ(firsts, (std::set<std::string>{"q1", "q2"}));
}

struct BadTrace {
  std::string content;
  std::optional<std::string> type;
  int line;
  std::string field;
  std::string message;
};

class TraceErrors : public TraceLoader, public ::testing::WithParamInterface<BadTrace> {};

TEST_P(TraceErrors, NameFileLineAndField) {
  const auto p = write(GetParam().content);
  auto r = load(p, GetParam().type);
  ASSERT_FALSE(r.ok());
  const auto& e = r.error();
  EXPECT_EQ(e.line, GetParam().line) << e.describe();
  EXPECT_EQ(e.field, GetParam().field) << e.describe();
  EXPECT_NE(e.message.find(GetParam().message), std::string::npos) << e.describe();
}

const std::string kMc = "mooncake_trace";

INSTANTIATE_TEST_SUITE_P(
    Table, TraceErrors,
    ::testing::Values(
        BadTrace{"version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 123\n", kMc, 1,
                 "", "is a Git LFS pointer"},
        BadTrace{"{\"input_length\": 5}\n{\"input_length\": 5,, }\n", kMc, 2, "",
                 "invalid JSON at column 20"},
        BadTrace{"{\"input_length\": 5}\n[1, 2]\n", kMc, 2, "",
                 "expected a JSON object, got a list"},
        BadTrace{"{\"input_length\": \"5\"}\n", kMc, 1, "input_length",
                 "must be an integer, got a string"},
        BadTrace{"{\"input_length\": 5.5}\n", kMc, 1, "input_length", "must be an integer"},
        BadTrace{"{\"input_length\": 0}\n", kMc, 1, "input_length", "at least 1"},
        BadTrace{"{\"output_length\": 5}\n", kMc, 1, "input_length", "exactly one of"},
        BadTrace{"{\"input_length\": 5, \"text_input\": \"a\"}\n", kMc, 1, "text_input",
                 "input_length and text_input are mutually exclusive"},
        BadTrace{"{\"text_input\": \"a\", \"hash_ids\": [1]}\n", kMc, 1, "hash_ids",
                 "only allowed with input_length"},
        BadTrace{"{\"input_length\": 600, \"hash_ids\": [1, \"x\"]}\n", kMc, 1, "hash_ids[1]",
                 "must be an integer"},
        BadTrace{"{\"text_input\": \"a\", \"tools\": [{}]}\n", kMc, 1, "tools",
                 "only allowed with messages"},
        BadTrace{"{\"text_input\": \"a\", \"message_mode\": \"delta\"}\n", kMc, 1, "message_mode",
                 "only allowed with messages"},
        BadTrace{"{\"messages\": [{\"content\": \"a\"}]}\n", kMc, 1, "messages[0]",
                 "needs a string 'role'"},
        BadTrace{"{\"messages\": []}\n", kMc, 1, "messages", "must not be empty"},
        BadTrace{"{\"payload\": {}}\n", kMc, 1, "payload", "must not be empty"},
        BadTrace{"{\"messages\": [{\"role\": \"user\"}], \"message_mode\": \"delta\", \"extra\": "
                 "{\"messages\": []}}\n",
                 kMc, 1, "extra", "must not contain 'messages'"},
        BadTrace{"{\"input_length\": 5, \"timestamp\": -1}\n", kMc, 1, "timestamp", "at least 0"},
        BadTrace{"{\"input_length\": 300, \"hash_ids\": [1, 2, 3]}\n", kMc, 1, "hash_ids",
                 "leaves -724 tokens for the last block"},
        BadTrace{"{\"input_length\": 600, \"hash_ids\": [1, 2]}\n{\"input_length\": 700, "
                 "\"hash_ids\": [1, 2]}\n",
                 kMc, 2, "hash_ids", "hash id 2 was a block of 88 tokens"},
        BadTrace{"{\"session_id\": \"s\", \"text_input\": \"a\"}\n{\"session_id\": \"s\", "
                 "\"payload\": {\"a\": 1}}\n",
                 kMc, 2, "payload",
                 "session 's' mixes input_length/text_input rows (first at line 1)"},
        BadTrace{"{\"input_length\": 5, \"type\": \"single_turn\"}\n", kMc, 1, "type",
                 "must be \"mooncake_trace\""},
        BadTrace{"{\"chat_id\": 1, \"timestamp\": 1, \"input_length\": 5}\n", "bailian_trace", 1,
                 "output_length", "is required"},
        BadTrace{"{\"chat_id\": 1, \"timestamp\": 1, \"input_length\": 5, \"output_length\": "
                 "1}\n{\"chat_id\": 1, \"timestamp\": 2, \"input_length\": 5, \"output_length\": "
                 "1}\n",
                 "bailian_trace", 2, "chat_id", "appears twice"},
        BadTrace{"{\"text\": \"a\", \"input_length\": 3}\n", std::nullopt, 0,
                 "--custom-dataset-type",
                 "several dataset formats match the first record: single_turn and mooncake_trace"},
        BadTrace{"{\"text\": \"ok\"}\n{\"text\": \"caf\xc3\"}\n", std::nullopt, 2, "",
                 "invalid UTF-8 at column 14"},
        BadTrace{"  \n\n", kMc, 0, "", "is empty"},
        BadTrace{"{\"timestamp_start_unix_ms\": 1, \"prompt\": \"a\", \"input_tokens\": 1}\n",
                 "baseten_trace", 1, "output_tokens", "is a required baseten_trace column"},
        BadTrace{"{\"timestamp_start_unix_ms\": 1, \"prompt\": 5, \"input_tokens\": 1, "
                 "\"output_tokens\": 1}\n",
                 "baseten_trace", 1, "prompt", "must be a string, got an integer"},
        // Syntactically JSON, but nlohmann refuses the number (it threw out_of_range, which escaped
        // the loaders: found by fuzz/dataset_fuzz.cpp).
        BadTrace{"{\"input_length\": 5}\n{\"input_length\": 5, \"timestamp\": 1e309}\n", kMc, 2, "",
                 "invalid JSON: number overflow parsing '1e309'"},
        BadTrace{"{\"data\": [{\"session_id\": \"s\", \"payloads\": [{\"a\": -1e400}]}]}",
                 "inputs_json", 0, "", "invalid JSON: number overflow parsing '-1e400'"},
        BadTrace{"{\"id\": \"a\", \"requests\": [{\"t\": 1e309}]}", "weka_trace", 0, "",
                 "is not valid JSON: number overflow parsing '1e309'"}));

TEST_F(TraceLoader, FolderWhereAFileIsExpected) {
  fs::create_directories(dir() / "sub");
  auto r = load(dir() / "sub", kMc);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("is a folder, but a mooncake_trace dataset is a single file"),
            std::string::npos)
      << r.error().message;
  auto undetected = load(dir() / "sub");
  ASSERT_FALSE(undetected.ok());
  EXPECT_NE(undetected.error().message.find("pass --custom-dataset-type"), std::string::npos);
}

TEST_F(TraceLoader, SynthesisOptionsAreForTracesOnly) {
  CustomLoadOptions o;
  o.synthesis.max_osl = 5;
  auto r = load(write("{\"text\": \"a\"}\n"), {}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("single_turn is not one"), std::string::npos);
}

}  // namespace
}  // namespace inferperf::dataset
