// Dataset loaders: every --custom-dataset-type (JSONL traces, the BurstGPT CSV, inputs.json,
// weka_trace JSON) and the ShareGPT file, loaded from a file holding the input. A file either
// loads or is refused with an error naming the file; nothing else may happen.
//
// Input: [format byte] [options byte] FILE CONTENT
//   format % 12: 0 detect the type, 1..10 that --custom-dataset-type, 11 ShareGPT;
//   format / 12 % 3: the file's extension (.jsonl, .csv, .json), which detection looks at.
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/custom_loader.hpp"
#include "dataset/sharegpt_loader.hpp"
#include "fuzz_input.hpp"
#include "scratch_file.hpp"
#include "tokenizer/tokenizer.hpp"

namespace {

namespace dataset = inferperf::dataset;

// One token per space-separated word: the ShareGPT filter only counts, and a real vocabulary
// would spend the fuzzer's time in the tokenizer (fuzzed on its own).
class WordTokenizer final : public inferperf::tokenizer::Tokenizer {
 public:
  std::vector<std::int32_t> encode(std::string_view text) const override {
    std::vector<std::int32_t> ids;
    bool in_word = false;
    for (char c : text) {
      const bool space = c == ' ' || c == '\n' || c == '\t';
      if (!space && !in_word) ids.push_back(static_cast<std::int32_t>(ids.size() % 100));
      in_word = !space;
    }
    return ids;
  }
  std::string decode(std::span<const std::int32_t> ids) const override {
    return std::string(ids.size() * 2, 'w');
  }
  std::size_t vocab_size() const override { return 100; }
};

constexpr int kCustomTypes = static_cast<int>(dataset::CustomType::kBasetenTrace) + 1;

void load_custom(const std::filesystem::path& path, int type, std::uint8_t options) {
  dataset::CustomLoadOptions o;
  o.path = path;
  if (type > 0) o.type = std::string(dataset::type_info(dataset::CustomType(type - 1)).name);
  // The option flags the loaders branch on; random_pool samples few conversations to stay fast.
  if (options & 0x01) o.start_offset_ms = 10;
  if (options & 0x02) o.end_offset_ms = 1000;
  if (options & 0x04) o.block_size = (options & 0x08) ? 1 : 3;
  if (options & 0x10) o.synthesis.speedup_ratio = 2.5;
  if (options & 0x20) o.synthesis.prompt_len_multiplier = 0.5;
  if (options & 0x40) o.synthesis.max_isl = 64;
  if (options & 0x80) o.synthesis.max_osl = 8;
  o.num_conversations = 8;
  o.seed = options;
  o.models = {"model-a", "model-b"};
  std::mt19937_64 id_rng(7);
  auto loaded = dataset::load_custom_dataset(o, id_rng);
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().message.empty());
    return;
  }
  FUZZ_CHECK(!loaded->dataset.conversations.empty());
  for (const auto& c : loaded->dataset.conversations) FUZZ_CHECK(!c.turns.empty());
}

void load_sharegpt(const std::filesystem::path& path, std::uint8_t options) {
  static const WordTokenizer tokenizer;
  dataset::ShareGptOptions o;
  o.path = path;
  o.tokenizer = &tokenizer;
  o.check_min_completion = (options & 1) != 0;
  o.threads = 1;
  std::mt19937_64 id_rng(7);
  auto loaded = dataset::load_sharegpt(o, id_rng);
  if (!loaded) {
    FUZZ_CHECK(!loaded.error().message.empty());
    return;
  }
  FUZZ_CHECK(loaded->kept() + loaded->skipped() == loaded->entries);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  const std::uint8_t format = in.byte();
  const std::uint8_t options = in.byte();
  static constexpr const char* kNames[] = {"input.jsonl", "input.csv", "input.json"};
  const auto path = inferperf::fuzz::write_scratch_file(kNames[format / 12 % 3], in.rest());
  const int type = format % 12;
  if (type <= kCustomTypes) {
    load_custom(path, type, options);
  } else {
    load_sharegpt(path, options);
  }
  return 0;
}
