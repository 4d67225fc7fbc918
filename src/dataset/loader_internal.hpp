// Internal to the dataset loaders: the context every format loader fills and typed access to a
// record's fields whose errors name the file, line and field.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/custom_loader.hpp"
#include "dataset/prompt_blocks.hpp"
#include "dataset/trace_synthesis.hpp"

namespace inferperf::dataset {

using ojson = nlohmann::ordered_json;

struct LoadContext {
  const CustomLoadOptions& options;
  std::string file;
  std::mt19937_64& id_rng;
  CustomDataset& out;
  std::optional<PromptBlockBuilder> blocks;  // formats with hash ids
  std::size_t next_row_key = 0;              // seeds each row's fresh text
  double planned_bytes = 0;                  // prompt text the rows so far will generate
  DelayCap delay_cap;                        // --inter-turn-delay-cap-seconds (its clamps)

  core::Error error(int line, std::string field, std::string message) const {
    return core::Error{core::ErrorKind::kInput, std::move(message), file, line, std::move(field)};
  }
  // A synthesized prompt of `input_length` tokens over `ids` (trace-formats §1.1); when the
  // blocks do not cover it, the rest is fresh text unique to the row.
  std::optional<core::Error> synthesize(int line, std::string_view field, int input_length,
                                        std::vector<std::int64_t> ids, Turn& turn);
};

// A line of a file, for errors that name the file, line and field.
struct LineContext {
  std::string file;
  int line = 0;
  std::filesystem::path dataset_dir;  // relative media paths are also tried from here
  core::Error error(const std::string& field, const std::string& message) const {
    return core::Error{core::ErrorKind::kInput, message, file, line, field};
  }
};

// A single_turn object (or one of a multi_turn line's turns; `where` prefixes field names).
std::optional<core::Error> parse_turn(const ojson& j, const LineContext& at,
                                      const std::string& where, Turn& out);

// One record's fields. Absent and null fields read as unset.
class Row {
 public:
  Row(const ojson& j, const LoadContext& ctx, int line) : j_(j), ctx_(ctx), line_(line) {}
  int line() const { return line_; }
  const ojson& json() const { return j_; }
  bool has(std::string_view name) const;
  const ojson* get(std::string_view name) const;
  core::Error error(std::string_view field, std::string message) const {
    return ctx_.error(line_, std::string(field), std::move(message));
  }
  std::optional<core::Error> integer(std::string_view name, std::optional<long long>& out,
                                     long long min) const;
  std::optional<core::Error> number(std::string_view name, std::optional<double>& out,
                                    double min) const;
  std::optional<core::Error> string(std::string_view name, std::optional<std::string>& out) const;
  std::optional<core::Error> int_list(std::string_view name, std::vector<std::int64_t>& out) const;
  std::optional<core::Error> object(std::string_view name, JsonPtr& out, bool non_empty) const;
  std::optional<core::Error> list(std::string_view name, JsonPtr& out, bool non_empty) const;

 private:
  const ojson& j_;
  const LoadContext& ctx_;
  int line_;
};

std::optional<core::Error> load_turn_lines(LoadContext& ctx, std::string_view content);
std::optional<core::Error> load_mooncake(LoadContext& ctx, std::string_view content);
std::optional<core::Error> load_bailian(LoadContext& ctx, std::string_view content);
std::optional<core::Error> load_burst_gpt(LoadContext& ctx, std::string_view content);
std::optional<core::Error> load_raw_payload(LoadContext& ctx);
std::optional<core::Error> load_inputs_json(LoadContext& ctx, std::string_view content);
std::optional<core::Error> load_random_pool(LoadContext& ctx);
std::optional<core::Error> load_baseten(LoadContext& ctx, std::string_view content);
bool is_columnar_file(const std::filesystem::path& p);
core::Error columnar_file_error(const std::string& file);
// Reads options.path itself (one .json file or a folder of them) and sets up ctx.blocks.
std::optional<core::Error> load_weka(LoadContext& ctx);

std::optional<core::Error> load_dag_jsonl(LoadContext& ctx, std::string_view content);
// Reads options.path itself (one JSONL file, or every *.jsonl below a folder).
std::optional<core::Error> load_sagemaker(LoadContext& ctx);
std::optional<core::Error> load_speed_bench(LoadContext& ctx, std::string_view content);
// After the rows and the offset filters: the prefix-structure synthesis of the rows with hash ids
// (trace_synthesis.hpp), which rebuilds ctx.blocks.
std::optional<core::Error> apply_prefix_synthesis(LoadContext& ctx);

// Record-level detection (trace-formats §0 `can_load`).
bool looks_like_mooncake(const ojson& j);
bool looks_like_bailian(const ojson& j);
bool looks_like_raw_payload(const ojson& j);
bool looks_like_single_turn(const ojson& j);
bool looks_like_multi_turn(const ojson& j);
bool looks_like_baseten(const ojson& j);
bool looks_like_dag_jsonl(const ojson& j);
bool looks_like_sagemaker(const ojson& j);
bool looks_like_speed_bench(const ojson& j);
// The speed_bench_* names: the split file each one reads and the category it keeps ("" = all).
struct SpeedBenchName {
  std::string name;
  std::string split_file;  // "qualitative.jsonl", "throughput_1k.jsonl", ...
  std::string category;
};
const std::vector<SpeedBenchName>& speed_bench_names();
const SpeedBenchName* find_speed_bench_name(std::string_view name);
// A whole .json file that is one weka_trace object.
bool looks_like_weka(std::string_view content);

}  // namespace inferperf::dataset
