// The dataset memory budget: the estimate grows with what sizes a dataset and stays close above
// what a generated dataset holds; refusals name the flags and the limit; trace rows that ask for
// absurd lengths are refused by file and line; errors quote at most an excerpt of the input.
#include "dataset/memory_estimate.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "core/byte_size.hpp"
#include "core/rng.hpp"
#include "dataset/custom_loader.hpp"
#include "dataset/synthetic.hpp"
#include "scratch_dir.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::dataset {
namespace {

namespace fs = std::filesystem;

SyntheticOptions small(int entries, int isl) {
  SyntheticOptions o;
  o.num_conversations = entries;
  o.isl_mean = isl;
  o.threads = 2;
  return o;
}

TEST(MemoryEstimate, GrowsWithEveryDriver) {
  const auto base = estimate_synthetic(small(100, 550), 5.0, 4).total();
  EXPECT_GT(estimate_synthetic(small(200, 550), 5.0, 4).total(), base);
  EXPECT_GT(estimate_synthetic(small(100, 1100), 5.0, 4).total(), base);
  EXPECT_GT(estimate_synthetic(small(100, 550), 6.0, 4).total(), base);
  auto batch = small(100, 550);
  batch.prompt_batch_size = 3;
  EXPECT_GT(estimate_synthetic(batch, 5.0, 4).total(), base);
  auto turns = small(100, 550);
  turns.turn_mean = 4;
  EXPECT_GT(estimate_synthetic(turns, 5.0, 4).total(), base);
  auto system = small(100, 550);
  system.shared_system_length = 1000;
  EXPECT_GT(estimate_synthetic(system, 5.0, 4).total(), base);
  // Doubling the entries about doubles the kept parts; the working space does not grow.
  const auto e1 = estimate_synthetic(small(1000, 550), 5.0, 4);
  const auto e2 = estimate_synthetic(small(2000, 550), 5.0, 4);
  EXPECT_EQ(e2.prompt_text, 2 * e1.prompt_text);
  EXPECT_EQ(e1.working, e2.working);
}

TEST(MemoryEstimate, HugeIslIsHundredsOfGigabytes) {
  const auto e = estimate_synthetic(small(100, 2'000'000'000), 5.0, 4);
  EXPECT_EQ(e.prompt_text, 1'000'000'000'000ull);  // 100 x 2e9 tokens x 5 bytes
  EXPECT_GT(e.total(), 2'000'000'000'000ull);      // + the kept bodies
}

// Prompt text within [actual, 1.5 x actual]: bytes_per_token is an upper bound with 10 % margin.
TEST(MemoryEstimate, CloseAboveAWordDataset) {
  const core::RngFactory rngs(7);
  for (int isl : {16, 550, 3000}) {
    const auto o = small(50, isl);
    const Dataset ds = compose_synthetic(o, rngs, nullptr);
    const double actual = static_cast<double>(dataset_text_bytes(ds));
    const double text =
        static_cast<double>(estimate_synthetic(o, bytes_per_token(nullptr)).prompt_text);
    EXPECT_GE(text, actual - 50 * 36) << isl;  // session ids are counted as structures
    EXPECT_LE(text, 1.5 * actual) << isl;
  }
}

TEST(MemoryEstimate, CloseAboveATokenizerDataset) {
  const auto path = fs::path(INFERPERF_SOURCE_DIR) / ".cache/tokenizers/llama3/tokenizer.json";
  if (!fs::exists(path)) GTEST_SKIP() << path << " is missing: run scripts/fetch-tokenizers.sh";
  auto tok = tokenizer::HfTokenizer::load(path);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  const double b = bytes_per_token(tok->get());
  EXPECT_GT(b, 3.0);
  EXPECT_LT(b, 8.0);
  const core::RngFactory rngs(7);
  auto o = small(40, 550);
  o.isl_stddev = 100;
  const Dataset ds = compose_synthetic(o, rngs, tok->get());
  const double actual = static_cast<double>(dataset_text_bytes(ds)) - 40 * 36;
  const double text = static_cast<double>(estimate_synthetic(o, b).prompt_text);
  EXPECT_GE(text, actual);
  EXPECT_LE(text, 1.5 * actual);
}

TEST(MemoryEstimate, BudgetDefaultsToHalfThePhysicalMemory) {
  EXPECT_EQ(dataset_memory_budget(123456789), 123456789u);
  const auto physical = core::physical_memory_bytes();
  EXPECT_EQ(dataset_memory_budget(0), physical > 0 ? physical / 2 : 8ull << 30);
}

TEST(MemoryEstimate, RefusalNamesTheFlagsAndTheLimit) {
  const auto e = estimate_synthetic(small(100, 2'000'000'000), 5.0, 4);
  const std::string m =
      budget_refusal(e, 8ull << 30, "--isl 2000000000 with --num-dataset-entries 100",
                     "--isl or --num-dataset-entries");
  EXPECT_NE(m.find("--isl 2000000000 with --num-dataset-entries 100"), std::string::npos) << m;
  EXPECT_NE(m.find("--max-dataset-memory is 8.0 GiB"), std::string::npos) << m;
  EXPECT_NE(m.find("prompt text 931.3 GiB"), std::string::npos) << m;
  EXPECT_NE(m.find("lower --isl or --num-dataset-entries"), std::string::npos) << m;
  EXPECT_LT(m.size(), 400u);
  EXPECT_EQ(budget_refusal(estimate_synthetic(small(100, 550), 5.0, 4), 8ull << 30, "x", "y"), "");
}

class TraceBudget : public ::testing::Test {
 protected:
  core::Result<CustomDataset> load(const std::string& content, std::uint64_t budget = 0) {
    CustomLoadOptions o;
    o.path = dir_.write(content, "trace.jsonl");
    o.memory_budget = budget;
    return load_custom_dataset(o, rng_);
  }
  ScratchDir dir_{"ip-budget-"};
  std::mt19937_64 rng_{1};
};

TEST_F(TraceBudget, AbsurdRowIsRefusedByLineBeforeAnyText) {
  auto r = load("{\"input_length\": 10}\n{\"input_length\": 200000000}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, 2);
  EXPECT_EQ(r.error().field, "input_length");
  EXPECT_NE(r.error().message.find("asks for 200000000 prompt tokens"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("16777216"), std::string::npos);
}

TEST_F(TraceBudget, RunningTotalIsRefusedAtTheLineThatCrossesTheBudget) {
  // 1 MiB budget, 5 bytes a token: rows of 100,000 tokens (~500 kB) cross it on the third.
  std::string rows;
  for (int i = 0; i < 5; ++i) rows += "{\"input_length\": 100000}\n";
  auto r = load(rows, 1 << 20);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, 3);
  EXPECT_NE(r.error().message.find("dataset memory budget of 1.0 MiB"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("--max-dataset-memory"), std::string::npos);
  // Shared hash-id blocks are counted once: 20 rows reusing one block fit.
  std::string shared;
  for (int i = 0; i < 20; ++i) shared += "{\"input_length\": 512, \"hash_ids\": [1]}\n";
  EXPECT_TRUE(load(shared, 1 << 20).ok());
}

TEST_F(TraceBudget, LoadedDatasetEstimateCountsTextBodiesAndOneEntry) {
  std::string rows;
  for (int i = 0; i < 10; ++i) rows += "{\"text\": \"" + std::string(1000, 'a') + "\"}\n";
  auto r = load(rows);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto e = estimate_loaded(r->dataset, 5.0);
  EXPECT_EQ(e.prompt_text, dataset_text_bytes(r->dataset));
  EXPECT_GE(e.prompt_text, 10'000u);
  EXPECT_LT(e.prompt_text, 11'000u);             // + ten session ids
  EXPECT_EQ(e.payloads, 10 * (1000 + 256u));     // each first turn's body is kept
  EXPECT_EQ(e.working, 3 * 1000u + (2u << 20));  // one entry of inputs.json at a time
  // A synthesized trace keeps no bodies; its prompts are assembled one request at a time.
  auto trace = load("{\"input_length\": 1000, \"hash_ids\": [1, 2]}\n");
  ASSERT_TRUE(trace.ok()) << trace.error().describe();
  const auto t = estimate_loaded(trace->dataset, 5.0);
  EXPECT_EQ(t.payloads, 0u);
  EXPECT_GE(t.working, 3 * 5000u);
}

TEST_F(TraceBudget, FileLargerThanTheBudgetIsRefusedBeforeReading) {
  auto r = load(std::string(600 * 1024, ' ') + "{\"text_input\": \"hi\"}\n", 1 << 20);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("more than the dataset memory budget of 1.0 MiB"),
            std::string::npos)
      << r.error().message;
}

TEST_F(TraceBudget, InvalidHugeLineIsQuotedAsAnExcerpt) {
  std::string line = "{\"text\": \"";
  for (int i = 0; i < 500'000; ++i) line += "word ";
  auto r = load("{\"text\": \"ok\"}\n" + line + "\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, 2);
  const std::string d = r.error().describe();
  EXPECT_LT(d.size(), 700u) << d.substr(0, 1000);
  EXPECT_NE(d.find("invalid JSON at column"), std::string::npos) << d;
}

TEST_F(TraceBudget, HugeValuesInMessagesAreExcerpts) {
  const std::string big(1'000'000, 'x');
  auto mode = load(
      "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"session_id\": "
      "\"s\", \"message_mode\": \"" +
      big + "\"}\n");
  ASSERT_FALSE(mode.ok());
  EXPECT_LT(mode.error().describe().size(), 500u);
  auto image = load("{\"text\": \"hi\", \"image\": \"" + big + "\"}\n");
  ASSERT_FALSE(image.ok());
  EXPECT_LT(image.error().describe().size(), 600u);
  auto number = load("{\"text\": \"hi\"}\n{\"text\": \"a\", \"delay\": 1e999999}\n");
  ASSERT_FALSE(number.ok());
  EXPECT_LT(number.error().describe().size(), 500u);
}

}  // namespace
}  // namespace inferperf::dataset
