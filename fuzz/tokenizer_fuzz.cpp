// tokenizer.json loading: any JSON either loads or is refused with a message; a tokenizer that
// loads encodes and decodes text without failing, and counts what it encodes.
//
// Input: TOKENIZER_JSON [\0 FLAGS TEXT]; without the text part a few fixed strings are encoded.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "tokenizer/hf_tokenizer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  const std::string_view json = in.until('\0');
  const std::uint8_t flags = in.byte();
  const std::string_view text = in.rest();

  auto loaded =
      inferperf::tokenizer::HfTokenizer::from_json_text(json, (flags & 1) != 0, "tokenizer.json");
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().message.empty());
    return 0;
  }
  const auto& tok = **loaded;
  // Words, spaces, digits, punctuation, accents, CJK, emoji and special-token-like text.
  static const std::vector<std::string_view> kSamples = {
      "Hello, world! 123", "  two  spaces\tand\na newline", "naïve café Ωmega 東京 🙂",
      "<|endoftext|>[CLS]<s></s>", ""};
  std::vector<std::string_view> texts(kSamples.begin(), kSamples.end());
  if (!text.empty()) texts = {text};
  for (std::string_view t : texts) {
    const std::vector<std::int32_t> ids = tok.encode(t);
    FUZZ_CHECK(tok.count(t) == ids.size());
    (void)tok.decode(ids);
  }
  // Every id of a small vocabulary, one at a time and all together, decodes.
  const auto n = static_cast<std::int32_t>(std::min<std::size_t>(tok.vocab_size(), 64));
  std::vector<std::int32_t> all;
  for (std::int32_t id = 0; id < n; ++id) {
    const std::int32_t one[] = {id};
    (void)tok.decode(one);
    all.push_back(id);
  }
  (void)tok.decode(all);
  return 0;
}
