// The --public-dataset names of AIPerf 0.11 and what each one reads: the Hugging Face dataset
// repository (or the single file of a URL), its default subset and split, how a record becomes
// a conversation, and which --dataset-filter keys it takes. Names whose data cannot be replayed
// faithfully here (images, audio, video, agent traces) are known and carry the refusal reason.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace inferperf::dataset {

// How a record becomes a conversation.
enum class PublicFamily {
  kShareGpt,     // one JSON list of {conversations: [{from, value}]} (sharegpt_loader.hpp)
  kInstruction,  // one single-turn conversation per record: a column, or a template of columns
  kMtBench,      // `prompt` is a list of user turns: one multi-turn conversation
  kSpecBench,    // `turns` is a list of questions: the first becomes a single-turn conversation
  kRefused,      // known, refused with `refusal`
};

// A --dataset-filter key a dataset declares, and the values it takes ("" = any value).
struct PublicFilterKey {
  std::string_view key;
  std::span<const std::string_view> values;
};

struct PublicDatasetSpec {
  std::string_view name;      // the --public-dataset value
  std::string_view repo;      // Hugging Face dataset repository ORG/NAME ("" = URL only)
  std::string_view revision;  // branch or commit of `repo`
  std::string_view subset;    // default config (--hf-subset overrides it; "" = none)
  std::string_view split;     // the split read
  PublicFamily family = PublicFamily::kInstruction;
  std::string_view prompt_column;    // kInstruction
  std::string_view prompt_template;  // kInstruction: "{column}" placeholders ("" = the column)
  // One-file datasets: the file's name in the cache, and where it is downloaded from ("" = from
  // the repository at `revision`).
  std::string_view filename;
  std::string_view url;
  std::string_view refusal;                  // kRefused: why
  std::span<const PublicFilterKey> filters;  // empty: --dataset-filter is refused
  std::string_view modality = "text";        // text, image, video, audio, agent trace
};

// Every name, in AIPerf 0.11's order.
std::span<const PublicDatasetSpec> public_datasets();
// The spec of that name, or null.
const PublicDatasetSpec* find_public_dataset_spec(std::string_view name);

using DatasetFilters = std::vector<std::pair<std::string, std::string>>;
// The filters checked against what `spec` declares: a dataset without filter support, an
// unknown key or an unknown value is an error that lists what is accepted.
std::optional<core::Error> check_public_filters(const PublicDatasetSpec& spec,
                                                const DatasetFilters& filters);

}  // namespace inferperf::dataset
