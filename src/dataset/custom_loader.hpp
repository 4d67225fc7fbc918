// --input-file datasets (trace-formats.md): every format, its detection and the shared steps after
// loading (offset filters, synthesis, timestamps). Every error names the file, the line and the
// field; a file that loads is exactly the workload that will be sent.
#pragma once
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

enum class CustomType {
  kSingleTurn,
  kMultiTurn,
  kRandomPool,
  kMooncakeTrace,
  kBailianTrace,
  kBurstGptTrace,
  kRawPayload,
  kInputsJson,
  kWekaTrace,
  kBasetenTrace,
  kDagJsonl,
  kSagemakerDataCapture,
  kSpeedBench,  // every speed_bench_* name (speed_bench_loader.cpp: split and category)
};

struct TypeInfo {
  CustomType type;
  std::string_view name;
  bool is_trace;
  int default_block_size;  // 0: the format has no hash ids
};
const TypeInfo& type_info(CustomType t);
std::optional<CustomType> type_from_name(std::string_view name);
// Every --custom-dataset-type name, for help texts and messages.
std::string type_names();
// Every --custom-dataset-type name, one entry each (the speed_bench_* names included).
std::vector<std::string> all_type_names();

// --synthesis-*: reshaping a trace as it loads (trace datasets only).
struct SynthesisOptions {
  double speedup_ratio = 1.0;          // timestamps and delays divided by it
  double prompt_len_multiplier = 1.0;  // input_length scaled by it
  std::optional<int> max_isl;          // rows with a longer input_length are dropped
  std::optional<int> max_osl;          // output_length capped
  // AIPerf 0.11's prefix-structure transform (trace_synthesis.hpp) over rows with hash ids.
  double prefix_len_multiplier = 1.0;  // the shared hash-id prefix stretched or shortened
  int prefix_root_multiplier = 1;      // rows spread over this many independent prefix trees
  double output_len_multiplier = 1.0;  // output_length scaled (at least 1), then max_osl caps
  bool reshapes() const {
    return speedup_ratio != 1.0 || prompt_len_multiplier != 1.0 || restructures() ||
           output_len_multiplier != 1.0;
  }
  // The options that rebuild the rows' hash-id structure.
  bool restructures() const { return prefix_len_multiplier != 1.0 || prefix_root_multiplier != 1; }
};

struct CustomLoadOptions {
  std::filesystem::path path;
  std::optional<std::string> type;  // --custom-dataset-type; detected from the file if unset
  // Fixed-schedule filters (ms, inclusive): first turns outside [start, end] are dropped.
  std::optional<double> start_offset_ms;
  std::optional<double> end_offset_ms;
  std::optional<int> block_size;                    // --prompt-input-tokens-block-size
  const tokenizer::Tokenizer* tokenizer = nullptr;  // synthesized prompts are exact for it
  std::uint64_t seed = 0;                           // hash-id blocks and fresh prompt text
  SynthesisOptions synthesis;
  int num_conversations = 100;         // random_pool: conversations sampled from the pools
  bool baseten_no_min_tokens = false;  // --no-force-min-tokens
  bool baseten_omit_kv_hints = false;  // --omit-kv-hints
  std::vector<std::string> models;     // --model values (weka_trace maps recorded models onto them)
  // --max-dataset-memory (bytes, 0 = no limit): the file and the prompt text its rows ask for
  // are checked against it row by row, before any text is generated.
  std::uint64_t memory_budget = 0;
  double bytes_per_token = 5.0;  // of synthesized prompt text (memory_estimate.hpp)
  // --inter-turn-delay-cap-seconds: recorded per-turn delays of dag_jsonl and weka_trace above
  // it are lowered to it (and counted).
  std::optional<double> inter_turn_delay_cap_s;
  // AIPerf 0.11's entry cap (a typed --num-dataset-entries, --num-conversations or
  // --request-count): only the first N root conversations in file order are kept, each with the
  // children it spawns. Unset: every conversation. random_pool samples num_conversations instead.
  std::optional<std::size_t> max_conversations;
};

struct CustomDataset {
  Dataset dataset;
  CustomType type = CustomType::kSingleTurn;
  std::size_t lines = 0;        // records read
  bool has_timestamps = false;  // every conversation's first turn has a timestamp
  std::optional<double> first_timestamp_ms;
  bool first_record_timed = false;  // the first record carries a timestamp or delay
  int block_size = 0;               // hash-id block size used (0: none)
  std::size_t dropped_rows = 0;     // --synthesis-max-isl drops
  std::size_t capped_delays = 0;    // --inter-turn-delay-cap-seconds clamps
  std::string type_name;            // the --custom-dataset-type name loaded (speed_bench_coding)
  std::vector<std::string> warnings;
  std::size_t uncapped_conversations = 0;  // root conversations before max_conversations
};

// `id_rng` draws the session ids of records that have none.
core::Result<CustomDataset> load_custom_dataset(const CustomLoadOptions& options,
                                                std::mt19937_64& id_rng);

// Keeps the conversations `keep` marks, dropping the children of a dropped one (parents come
// before their children) and renumbering the kept ChildLinks.
void keep_conversations(Dataset& ds, std::vector<bool> keep);
// Keeps the first `n` root conversations (children go with their parent); returns how many root
// conversations there were.
std::size_t keep_first_conversations(Dataset& ds, std::size_t n);

// The type a JSONL record's structure says (trace-formats §0): an explicit dataset "type" wins;
// otherwise exactly one format must accept the record. The error says what matched.
core::Result<CustomType> detect_record_type(const std::string& json_line,
                                            const std::string& file = "");
// Compatibility shorthand: the detected type, or nothing.
std::optional<CustomType> infer_custom_type(const std::string& json_line);

}  // namespace inferperf::dataset
