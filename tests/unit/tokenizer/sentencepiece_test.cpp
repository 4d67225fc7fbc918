// SentencePiece .model files: a model is trained at test time (libsentencepiece_train) on the
// project's own documentation, then loaded through load_tokenizer_file and resolve_tokenizer.
#include <gtest/gtest.h>
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "test_support.hpp"
#include "tokenizer/resolve.hpp"

namespace inferperf::tokenizer {
namespace {

namespace fs = std::filesystem;

constexpr int kVocab = 300;

const std::vector<std::string> kSentences = {
    "The quick brown fox jumps over the lazy dog.",
    "Benchmarks measure time to first token and inter-token latency.",
    "Each request streams tokens from the server; the client counts them.",
    "Run it with --concurrency 8 and a seed of 42.",
    "a",
};

class SentencePiece : public ::testing::Test {
 protected:
  // One model per test process: concatenating README.md and docs/*.md and training takes well under
  // a second.
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    std::string corpus = testing::read_file(testing::kSourceDir / "README.md");
    for (const auto& e : fs::directory_iterator(testing::kSourceDir / "docs")) {
      if (e.path().extension() == ".md") corpus += "\n" + testing::read_file(e.path());
    }
    corpus_ = new std::string(corpus);
    const fs::path input = *dir_ / "corpus.txt";
    testing::write_file(input, corpus);
    const std::unordered_map<std::string, std::string> args = {
        {"input", input.string()},
        {"model_prefix", (*dir_ / "spm").string()},
        {"vocab_size", std::to_string(kVocab)},
        {"model_type", "bpe"},
        {"character_coverage", "1.0"},
        {"num_threads", "2"},
        {"minloglevel", "2"},
    };
    const auto status = sentencepiece::SentencePieceTrainer::Train(args);
    train_error_ = new std::string(status.ok() ? "" : status.ToString());
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete corpus_;
    delete train_error_;
  }
  void SetUp() override {
    ASSERT_EQ(*train_error_, "") << "training the test model failed";
    ASSERT_TRUE(fs::is_regular_file(model_path())) << model_path();
  }
  static fs::path model_path() { return *dir_ / "spm.model"; }

  static testing::TempDir* dir_;
  static std::string* corpus_;
  static std::string* train_error_;
};

testing::TempDir* SentencePiece::dir_ = nullptr;
std::string* SentencePiece::corpus_ = nullptr;
std::string* SentencePiece::train_error_ = nullptr;

TEST_F(SentencePiece, LoadsTrainedModelWithItsVocabSize) {
  auto tok = load_tokenizer_file(model_path());
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  EXPECT_EQ((*tok)->vocab_size(), static_cast<std::size_t>(kVocab));
}

TEST_F(SentencePiece, EncodeDecodeRoundTripsAsciiSentences) {
  auto tok = load_tokenizer_file(model_path());
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  for (const auto& s : kSentences) {
    // Every character must be in the training text, or it encodes as <unk> and cannot round-trip.
    for (char c : s)
      ASSERT_NE(corpus_->find(c), std::string::npos) << "'" << c << "' not in the corpus";
    const auto ids = (*tok)->encode(s);
    ASSERT_FALSE(ids.empty()) << s;
    for (auto id : ids) {
      EXPECT_GE(id, 0);
      EXPECT_LT(id, kVocab);
      EXPECT_NE(id, 0) << "<unk> in the encoding of " << s;
    }
    EXPECT_EQ((*tok)->count(s), ids.size());
    EXPECT_EQ((*tok)->decode(ids), s);
  }
  // Subword merges were learned: common words take clearly fewer ids than characters.
  EXPECT_LT((*tok)->encode(kSentences[1]).size() * 3, kSentences[1].size() * 2);
  EXPECT_TRUE((*tok)->encode("").empty());
}

TEST_F(SentencePiece, MatchesSentencePieceProcessorWithoutBosOrEos) {
  auto tok = load_tokenizer_file(model_path());
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  sentencepiece::SentencePieceProcessor sp;
  ASSERT_TRUE(sp.Load(model_path().string()).ok());
  for (const auto& s : kSentences) {
    std::vector<int> expected;
    ASSERT_TRUE(sp.Encode(s, &expected).ok());
    const auto ids = (*tok)->encode(s);
    EXPECT_EQ(std::vector<int>(ids.begin(), ids.end()), expected) << s;
    EXPECT_EQ(std::count(ids.begin(), ids.end(), sp.bos_id()), 0);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), sp.eos_id()), 0);
  }
  // Invalid UTF-8 is sanitized first, as for tokenizer.json files.
  const std::string bad = "the \xff dog";
  std::vector<int> expected;
  ASSERT_TRUE(sp.Encode("the \xEF\xBF\xBD dog", &expected).ok());
  const auto ids = (*tok)->encode(bad);
  EXPECT_EQ(std::vector<int>(ids.begin(), ids.end()), expected);
}

TEST_F(SentencePiece, ResolvesAFolderHoldingTokenizerModel) {
  testing::TempDir dir;
  fs::copy_file(model_path(), dir / "tokenizer.model");
  ResolveOptions o;
  o.name = dir.path().string();
  o.hf_hub_cache = (dir / "no-hub").string();
  auto r = resolve_tokenizer(o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, dir / "tokenizer.model");
  auto tok = load_tokenizer_file(r->file);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  EXPECT_EQ((*tok)->vocab_size(), static_cast<std::size_t>(kVocab));
}

TEST(SentencePieceErrors, NonModelFilesGiveErrors) {
  testing::TempDir dir;
  const fs::path text_model = dir / "not-a-model.model";
  testing::write_file(text_model, "this is plain text, not a serialized ModelProto\n");
  auto r = load_tokenizer_file(text_model);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, text_model.string());
  EXPECT_NE(r.error().message.find("SentencePiece"), std::string::npos) << r.error().message;

  auto missing = load_tokenizer_file(dir / "missing.model");
  EXPECT_FALSE(missing.ok());

  // Not a .model: read as tokenizer.json, which it is not either.
  const fs::path text_json = dir / "tokenizer.json";
  testing::write_file(text_json, "this is plain text\n");
  auto j = load_tokenizer_file(text_json);
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.error().file, text_json.string());
  EXPECT_NE(j.error().message.find("JSON"), std::string::npos) << j.error().message;
}

}  // namespace
}  // namespace inferperf::tokenizer
