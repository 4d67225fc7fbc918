// --input-file datasets of the `single_turn` and `multi_turn` types (spec 3.3): JSONL, one object
// per line, blank lines skipped. Every error names the file, the line and the field.
#pragma once
#include <filesystem>
#include <optional>
#include <random>
#include <string>

#include "core/error.hpp"
#include "dataset/conversation.hpp"

namespace inferperf::dataset {

enum class CustomType { kSingleTurn, kMultiTurn };

struct CustomLoadOptions {
  std::filesystem::path path;
  std::optional<std::string> type;  // --custom-dataset-type; inferred from the first line if unset
  // Fixed-schedule filters (ms, inclusive): first turns outside [start, end] are dropped.
  std::optional<double> start_offset_ms;
  std::optional<double> end_offset_ms;
};

struct CustomDataset {
  Dataset dataset;
  CustomType type = CustomType::kSingleTurn;
  std::size_t lines = 0;        // non-blank lines read
  bool has_timestamps = false;  // every conversation's first turn has a timestamp
  std::optional<double> first_timestamp_ms;
};

// `id_rng` draws the session ids of lines that have none.
core::Result<CustomDataset> load_custom_dataset(const CustomLoadOptions& options,
                                                std::mt19937_64& id_rng);

// The type a line's structure says, as AIPerf infers it: an explicit "type" wins; "turns" means
// multi_turn; a text field means single_turn. Empty when nothing matches.
std::optional<CustomType> infer_custom_type(const std::string& json_line);

}  // namespace inferperf::dataset
