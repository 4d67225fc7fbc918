// Encode and decode must equal the pinned JavaScript reference on every committed vector.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::tokenizer {
namespace {

const std::filesystem::path kSource = INFERPERF_SOURCE_DIR;

class ReferenceVectors : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceVectors, EncodeAndDecodeMatchReference) {
  const std::string name = GetParam();
  const auto tok_path = kSource / ".cache/tokenizers" / name / "tokenizer.json";
  ASSERT_TRUE(std::filesystem::exists(tok_path))
      << tok_path << " is missing: run scripts/fetch-tokenizers.sh";
  auto tok = HfTokenizer::load(tok_path);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();

  std::ifstream in(kSource / "tests/data/tokenizer" / (name + ".vectors.jsonl"));
  ASSERT_TRUE(in) << "vectors file missing";
  std::string line;
  int total = 0, encode_bad = 0, decode_bad = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    const std::string text = j["text"];
    const auto expected = j["ids"].get<std::vector<std::int32_t>>();
    const auto ids = (*tok)->encode(text);
    ++total;
    if (ids != expected) {
      if (++encode_bad <= 5) {
        ADD_FAILURE() << name << " encode mismatch for " << nlohmann::json(text).dump()
                      << "\n  expected " << nlohmann::json(expected).dump() << "\n  actual   "
                      << nlohmann::json(ids).dump();
      }
      continue;
    }
    const std::string decoded = (*tok)->decode(expected);
    if (decoded != j["decoded"].get<std::string>()) {
      if (++decode_bad <= 5) {
        ADD_FAILURE() << name << " decode mismatch for " << nlohmann::json(expected).dump()
                      << "\n  expected " << j["decoded"].dump() << "\n  actual   "
                      << nlohmann::json(decoded).dump();
      }
    }
  }
  EXPECT_GE(total, 2000);
  EXPECT_EQ(encode_bad, 0) << "of " << total;
  EXPECT_EQ(decode_bad, 0) << "of " << total;
}

INSTANTIATE_TEST_SUITE_P(Tokenizers, ReferenceVectors,
                         ::testing::Values("qwen3", "llama3", "gpt4o", "llama2"));

}  // namespace
}  // namespace inferperf::tokenizer
