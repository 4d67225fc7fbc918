// tokenizer.json files that are valid JSON but not a valid pipeline: each is refused with an
// error naming the part, never an exception (cases found by fuzz/tokenizer_fuzz.cpp).
#include <gtest/gtest.h>

#include <string>

#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::tokenizer {
namespace {

constexpr const char* kModel =
    R"("model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []})";

core::Result<std::unique_ptr<HfTokenizer>> load(const std::string& parts) {
  return HfTokenizer::from_json_text("{" + parts + ", " + kModel + "}", true, "t.json");
}

TEST(MalformedTokenizerJson, PatternMissingIsAnErrorNotAnException) {
  for (const char* part :
       {R"("pre_tokenizer": {"type": "Split", "behavior": "Removed"})",
        R"("normalizer": {"type": "Replace", "content": "x"})",
        R"("decoder": {"type": "Replace", "content": "x"})",
        R"("pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split"},
           {"type": "ByteLevel"}]})"}) {
    auto t = load(part);
    ASSERT_FALSE(t.ok()) << part;
    EXPECT_NE(t.error().message.find("pattern"), std::string::npos) << t.error().message;
  }
}

}  // namespace
}  // namespace inferperf::tokenizer
