#include "dataset/custom_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "core/byte_size.hpp"
#include "core/uuid.hpp"
#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/media.hpp"

namespace inferperf::dataset {

namespace {

namespace fs = std::filesystem;

constexpr std::array<TypeInfo, 13> kTypes = {{
    {CustomType::kSingleTurn, "single_turn", false, 0},
    {CustomType::kMultiTurn, "multi_turn", false, 0},
    {CustomType::kRandomPool, "random_pool", false, 0},
    {CustomType::kMooncakeTrace, "mooncake_trace", true, 512},
    {CustomType::kBailianTrace, "bailian_trace", true, 16},
    {CustomType::kBurstGptTrace, "burst_gpt_trace", true, 0},
    {CustomType::kRawPayload, "raw_payload", false, 0},
    {CustomType::kInputsJson, "inputs_json", false, 0},
    {CustomType::kWekaTrace, "weka_trace", true, 64},
    {CustomType::kBasetenTrace, "baseten_trace", true, 64},
    {CustomType::kDagJsonl, "dag_jsonl", false, 0},
    {CustomType::kSagemakerDataCapture, "sagemaker_data_capture", true, 0},
    {CustomType::kSpeedBench, "speed_bench", false, 0},  // named by speed_bench_names()
}};

}  // namespace

// One turn object (a single_turn line, or an element of a multi_turn line's "turns").
std::optional<core::Error> parse_turn(const ojson& j, const LineContext& at,
                                      const std::string& where, Turn& out) {
  if (!j.is_object()) return at.error(where, "a turn must be a JSON object");
  if (auto e = parse_media(j, at, where, at.dataset_dir, out)) return e;
  const bool has_text = j.contains("text"), has_texts = j.contains("texts");
  if (has_text && has_texts)
    return at.error(where + "text", "'text' and 'texts' are mutually exclusive");
  if (!has_text && !has_texts && out.media.empty()) {
    return at.error(where + "text", "a turn needs 'text' or 'texts' (or an image, audio or video)");
  }
  std::vector<std::string> texts;
  if (has_text) {
    if (!j["text"].is_string()) return at.error(where + "text", "'text' must be a string");
    texts.push_back(j["text"].get<std::string>());
  } else if (has_texts) {
    const ojson& t = j["texts"];
    if (!t.is_array() || t.empty())
      return at.error(where + "texts", "'texts' must be a non-empty list");
    for (const auto& item : t) {
      if (item.is_string()) {
        texts.push_back(item.get<std::string>());
      } else if (item.is_object() && item.contains("contents") && item["contents"].is_array()) {
        // {"name": ..., "contents": [...]}: every content becomes one text of the turn.
        for (const auto& c : item["contents"]) {
          if (!c.is_string()) return at.error(where + "texts", "'contents' must hold strings");
          texts.push_back(c.get<std::string>());
        }
      } else {
        return at.error(where + "texts",
                        "'texts' items must be strings or {\"name\", \"contents\": [...]} objects");
      }
    }
    if (texts.empty()) return at.error(where + "texts", "'texts' holds no text");
  }
  if (!texts.empty()) {
    out.text = texts.front();
    out.more_texts.assign(texts.begin() + 1, texts.end());
  }
  if (j.contains("role")) {
    if (!j["role"].is_string()) return at.error(where + "role", "'role' must be a string");
    out.role = j["role"].get<std::string>();
  }
  const bool has_ts = j.contains("timestamp"), has_delay = j.contains("delay");
  if (has_ts && has_delay)
    return at.error(where + "timestamp", "'timestamp' and 'delay' are mutually exclusive");
  if (has_ts) {
    if (!j["timestamp"].is_number())
      return at.error(where + "timestamp", "'timestamp' must be a number (ms)");
    out.timestamp_ms = j["timestamp"].get<double>();
  }
  if (has_delay) {
    if (!j["delay"].is_number() || j["delay"].get<double>() < 0)
      return at.error(where + "delay", "'delay' must be a number of ms >= 0");
    out.delay_ms = j["delay"].get<double>();
  }
  if (j.contains("output_length")) {
    const ojson& v = j["output_length"];
    if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > INT32_MAX)
      return at.error(where + "output_length", "'output_length' must be an integer >= 1");
    out.max_tokens = v.get<int>();
  }
  if (j.contains("extra")) {
    if (!j["extra"].is_object()) return at.error(where + "extra", "'extra' must be an object");
    out.extra = std::make_shared<const ojson>(j["extra"]);
  }
  return std::nullopt;
}

namespace {

// A pretty-printed JSON document (inputs.json) starts with a line holding only "{".
bool starts_multiline_object(std::string_view content) {
  const auto b = content.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos || content[b] != '{') return false;
  const auto nl = content.find('\n', b);
  const std::string_view first = content.substr(b, nl == std::string_view::npos ? nl : nl - b);
  return first.find_first_not_of("{ \t\r") == std::string_view::npos;
}

}  // namespace

const TypeInfo& type_info(CustomType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i;
  return kTypes.front();
}

std::optional<CustomType> type_from_name(std::string_view name) {
  if (find_speed_bench_name(name)) return CustomType::kSpeedBench;
  for (const auto& i : kTypes)
    if (i.name == name && i.type != CustomType::kSpeedBench) return i.type;
  return std::nullopt;
}

std::string type_names() {
  std::string out;
  for (const auto& i : kTypes) {
    if (i.type == CustomType::kSpeedBench) continue;
    if (!out.empty()) out += ", ";
    out += i.name;
  }
  return out +
         ", speed_bench_<split or category> (speed_bench_qualitative, speed_bench_coding, "
         "speed_bench_throughput_1k_mixed, ...)";
}

std::vector<std::string> all_type_names() {
  std::vector<std::string> out;
  for (const auto& i : kTypes)
    if (i.type != CustomType::kSpeedBench) out.emplace_back(i.name);
  for (const auto& n : speed_bench_names()) out.push_back(n.name);
  return out;
}

bool looks_like_single_turn(const ojson& j) {
  if (j.contains("turns")) return false;
  for (const char* k : {"text", "texts", "image", "images", "audio", "audios", "video", "videos"})
    if (j.contains(k)) return true;
  return false;
}

bool looks_like_multi_turn(const ojson& j) {
  return j.contains("turns") && j["turns"].is_array() && !looks_like_dag_jsonl(j);
}

namespace {
// An inputs.json written on one line: {"data": [{"payloads": [...]}, ...]}.
bool looks_like_compact_inputs_json(const ojson& j) {
  const auto d = j.find("data");
  return d != j.end() && d->is_array() && !d->empty() && (*d)[0].is_object() &&
         (*d)[0].contains("payloads") && (*d)[0]["payloads"].is_array();
}
}  // namespace

core::Result<CustomType> detect_record_type(const std::string& json_line, const std::string& file) {
  auto err = [&](std::string m) {
    return core::Error{core::ErrorKind::kInput, std::move(m), file, 0, "--custom-dataset-type"};
  };
  const ojson j = ojson::parse(json_line, nullptr, false);
  if (!j.is_object()) return err("the first record is not a JSON object");
  if (auto t = j.find("type"); t != j.end() && t->is_string()) {
    if (auto known = type_from_name(t->get<std::string>())) return *known;
    // Other values (Bailian's request kind "text") are data, not a dataset type.
  }
  if (looks_like_speed_bench(j)) {
    return err(
        "the first record is a SPEED-Bench row: pass --custom-dataset-type "
        "speed_bench_<split or category> (the file name qualitative.jsonl or "
        "throughput_<isl>.jsonl names the split)");
  }
  if (looks_like_compact_inputs_json(j)) return CustomType::kInputsJson;
  std::vector<CustomType> matches;
  if (looks_like_dag_jsonl(j)) matches.push_back(CustomType::kDagJsonl);
  if (looks_like_sagemaker(j)) matches.push_back(CustomType::kSagemakerDataCapture);
  if (looks_like_single_turn(j)) matches.push_back(CustomType::kSingleTurn);
  if (looks_like_multi_turn(j)) matches.push_back(CustomType::kMultiTurn);
  if (looks_like_mooncake(j)) matches.push_back(CustomType::kMooncakeTrace);
  if (looks_like_bailian(j)) matches.push_back(CustomType::kBailianTrace);
  if (looks_like_raw_payload(j)) matches.push_back(CustomType::kRawPayload);
  if (looks_like_baseten(j)) matches.push_back(CustomType::kBasetenTrace);
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) {
    return err("no dataset format matches the first record (its fields: " +
               [&] {
                 std::string keys;
                 for (auto it = j.begin(); it != j.end(); ++it)
                   keys += (keys.empty() ? "" : ", ") + it.key();
                 return keys.empty() ? std::string("none") : core::excerpt(keys);
               }() +
               "); pass --custom-dataset-type (one of " + type_names() + ")");
  }
  std::string names;
  for (auto m : matches) names += (names.empty() ? "" : " and ") + std::string(type_info(m).name);
  return err("several dataset formats match the first record: " + names +
             "; pass --custom-dataset-type explicitly");
}

std::optional<CustomType> infer_custom_type(const std::string& json_line) {
  auto t = detect_record_type(json_line);
  if (!t) return std::nullopt;
  return *t;
}

std::optional<core::Error> load_turn_lines(LoadContext& ctx, std::string_view content) {
  std::map<std::string, std::size_t> by_session;  // session id -> conversation index
  auto& convs = ctx.out.dataset.conversations;
  const bool multi = ctx.out.type == CustomType::kMultiTurn;
  return for_each_json_line(
      content, ctx.file, [&](int line, ojson& j) -> std::optional<core::Error> {
        ++ctx.out.lines;
        LineContext at{ctx.file, line, ctx.options.path.parent_path()};
        std::string session;
        if (j.contains("session_id")) {
          if (!j["session_id"].is_string())
            return at.error("session_id", "'session_id' must be a string");
          session = j["session_id"].get<std::string>();
        }
        std::vector<Turn> turns;
        if (!multi) {
          Turn turn;
          if (auto e = parse_turn(j, at, "", turn)) return *e;
          turns.push_back(std::move(turn));
        } else {
          if (!j.contains("turns") || !j["turns"].is_array() || j["turns"].empty())
            return at.error("turns", "a multi_turn line needs a non-empty 'turns' list");
          for (std::size_t k = 0; k < j["turns"].size(); ++k) {
            Turn turn;
            if (auto e = parse_turn(j["turns"][k], at, "turns[" + std::to_string(k) + "].", turn))
              return *e;
            turns.push_back(std::move(turn));
          }
        }
        auto it = session.empty() ? by_session.end() : by_session.find(session);
        if (it == by_session.end()) {
          Conversation conv;
          conv.session_id = session.empty() ? core::uuid4(ctx.id_rng) : session;
          // single_turn rows of one session are sent in order but stay self-contained.
          if (!multi) conv.context_mode = ContextMode::kMessageArrayWithResponses;
          if (!session.empty()) it = by_session.emplace(session, convs.size()).first;
          convs.push_back(std::move(conv));
        }
        Conversation& conv = it != by_session.end() ? convs[it->second] : convs.back();
        for (auto& t : turns) conv.turns.push_back(std::move(t));
        return std::nullopt;
      });
}

namespace {

// Fixed-schedule offsets filter by the first turn's timestamp (inclusive).
std::optional<core::Error> apply_offsets(LoadContext& ctx) {
  const auto& o = ctx.options;
  auto& convs = ctx.out.dataset.conversations;
  if (!o.start_offset_ms && !o.end_offset_ms) return std::nullopt;
  // Root conversations are filtered by their first turn; a child goes with its parent.
  std::vector<bool> keep(convs.size(), true);
  for (std::size_t i = 0; i < convs.size(); ++i) {
    const auto ts = convs[i].turns.front().timestamp_ms;
    keep[i] = convs[i].child || !(ts && ((o.start_offset_ms && *ts < *o.start_offset_ms) ||
                                         (o.end_offset_ms && *ts > *o.end_offset_ms)));
  }
  keep_conversations(ctx.out.dataset, std::move(keep));
  if (convs.empty()) {
    return ctx.error(
        0, "timestamp",
        "no entry is inside --fixed-schedule-start-offset/--fixed-schedule-end-offset");
  }
  return std::nullopt;
}

bool first_record_timed(const Dataset& ds) {
  if (ds.conversations.empty() || ds.conversations.front().turns.empty()) return false;
  const Turn& t = ds.conversations.front().turns.front();
  return t.timestamp_ms || t.delay_ms;
}

}  // namespace

namespace {
// A file is held whole while it loads and its rows' text is kept: about twice its size. Checked
// before reading, so a file larger than the budget costs nothing.
std::optional<core::Error> check_file_size(const fs::path& path, std::uint64_t budget) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || budget == 0 || 2 * static_cast<double>(size) <= static_cast<double>(budget))
    return std::nullopt;
  return core::Error{
      core::ErrorKind::kInput,
      fmt::format("is {}; loading it needs about {}, more than the dataset memory budget of {} "
                  "(raise --max-dataset-memory, or use a smaller file)",
                  core::format_byte_size(size), core::format_byte_size(2 * size),
                  core::format_byte_size(budget)),
      path.string(), 0, "--input-file"};
}

core::Error custom_config_error(std::string message, std::string field) {
  return core::Error{core::ErrorKind::kConfig, std::move(message), "", 0, std::move(field)};
}

// The --custom-dataset-type named, if any.
core::Result<std::optional<CustomType>> requested_custom_type(const CustomLoadOptions& o) {
  if (!o.type) return std::optional<CustomType>();
  if (auto type = type_from_name(*o.type)) return type;
  return custom_config_error(
      "unknown --custom-dataset-type " + core::excerpt(*o.type) + " (one of " + type_names() + ")",
      "--custom-dataset-type");
}

// A folder's type, from the first record of its first *.jsonl file (sorted; searched below the
// folder when it holds none itself): SageMaker captures or raw request bodies.
core::Result<CustomType> detect_folder_type(const std::string& file, const fs::path& folder) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec))
    if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
  if (files.empty()) {
    for (const auto& e : fs::recursive_directory_iterator(folder, ec))
      if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (!files.empty()) {
    auto content = read_input_file(files.front());
    if (content) {
      auto first = first_json_line(*content, files.front().string());
      if (first && looks_like_sagemaker(*first)) return CustomType::kSagemakerDataCapture;
      if (first && first->contains("messages") && (*first)["messages"].is_array())
        return CustomType::kRawPayload;
    }
  }
  return core::Error{core::ErrorKind::kInput,
                     "is a folder: pass --custom-dataset-type (random_pool, raw_payload, "
                     "weka_trace and sagemaker_data_capture read folders)",
                     file, 0, "--input-file"};
}

// The type an unnamed dataset's file says: its extension, its layout, or its first record.
// `name` receives the speed_bench_* split a SPEED-Bench file's name selects.
core::Result<CustomType> detect_file_type(const CustomLoadOptions& o, const std::string& file,
                                          bool folder, std::string_view content,
                                          std::string& name) {
  if (folder) return detect_folder_type(file, o.path);
  if (o.path.extension() == ".csv") return CustomType::kBurstGptTrace;
  if (o.path.extension() == ".json" && looks_like_weka(content)) return CustomType::kWekaTrace;
  // A pretty-printed inputs.json: one object over many lines.
  if (starts_multiline_object(content)) return CustomType::kInputsJson;
  auto first = first_json_line(content, file);
  if (!first) return first.error();
  if (looks_like_speed_bench(*first)) {
    // As AIPerf: each split claims the file bearing its name; categories need the flag.
    for (const auto& n : speed_bench_names()) {
      if (n.category.empty() && n.split_file == o.path.filename().string()) {
        name = n.name;
        return CustomType::kSpeedBench;
      }
    }
  }
  return detect_record_type(first->dump(), file);
}

// The --synthesis-* options reshape traces only, and weka_trace's prompts cannot be lengthened.
std::optional<core::Error> check_synthesis_applies(const CustomLoadOptions& o,
                                                   const TypeInfo& info) {
  if (o.synthesis.reshapes() || o.synthesis.max_isl || o.synthesis.max_osl) {
    if (!info.is_trace) {
      return custom_config_error(
          fmt::format("--synthesis-* options reshape trace datasets; {} is not one", info.name),
          "--synthesis-*");
    }
  }
  const bool prompt_shape = o.synthesis.prompt_len_multiplier != 1.0 || o.synthesis.restructures();
  if (info.type == CustomType::kWekaTrace && prompt_shape) {
    return custom_config_error(
        "--synthesis-prompt-len-multiplier, --synthesis-prefix-len-multiplier and "
        "--synthesis-prefix-root-multiplier are not supported for weka_trace (its prompts are "
        "delta-encoded hash-id segments)",
        "--synthesis-*");
  }
  if (info.type == CustomType::kSagemakerDataCapture && prompt_shape) {
    return custom_config_error(
        "sagemaker_data_capture replays the captured messages verbatim: "
        "--synthesis-prompt-len-multiplier, --synthesis-prefix-len-multiplier and "
        "--synthesis-prefix-root-multiplier do not apply",
        "--synthesis-*");
  }
  return std::nullopt;
}

// The hash-id block builder of the formats whose rows name blocks. Baseten prompts are verbatim
// (its block size is only forwarded as a KV hint); weka_trace sets up its blocks itself: its files
// declare their block size.
std::optional<core::Error> set_up_prompt_blocks(LoadContext& ctx, const TypeInfo& info) {
  const CustomLoadOptions& o = ctx.options;
  CustomDataset& out = ctx.out;
  if (info.type == CustomType::kWekaTrace || info.type == CustomType::kBasetenTrace ||
      (info.default_block_size <= 0 && info.type != CustomType::kBurstGptTrace))
    return std::nullopt;
  int b = info.default_block_size > 0 ? info.default_block_size : 512;
  if (o.block_size) {
    if (*o.block_size < 1)
      return custom_config_error("the block size must be at least 1",
                                 "--prompt-input-tokens-block-size");
    if (info.default_block_size > 0 && *o.block_size != info.default_block_size) {
      out.warnings.push_back(fmt::format(
          "--prompt-input-tokens-block-size {} differs from {}'s block size {}: hash ids will "
          "expand to {}-token blocks, so prompt lengths and sharing follow the flag, not the "
          "capture",
          *o.block_size, info.name, info.default_block_size, *o.block_size));
    }
    b = *o.block_size;
  }
  if (info.default_block_size > 0) out.block_size = b;
  ctx.blocks.emplace(b, o.tokenizer, o.seed);
  return std::nullopt;
}

std::optional<core::Error> load_rows_of_type(LoadContext& ctx, CustomType type,
                                             std::string_view content) {
  switch (type) {
    case CustomType::kSingleTurn:
    case CustomType::kMultiTurn:
      return load_turn_lines(ctx, content);
    case CustomType::kMooncakeTrace:
      return load_mooncake(ctx, content);
    case CustomType::kBailianTrace:
      return load_bailian(ctx, content);
    case CustomType::kBurstGptTrace:
      return load_burst_gpt(ctx, content);
    case CustomType::kRawPayload:
      return load_raw_payload(ctx);
    case CustomType::kInputsJson:
      return load_inputs_json(ctx, content);
    case CustomType::kRandomPool:
      return load_random_pool(ctx);
    case CustomType::kWekaTrace:
      return load_weka(ctx);
    case CustomType::kBasetenTrace:
      return load_baseten(ctx, content);
    case CustomType::kDagJsonl:
      return load_dag_jsonl(ctx, content);
    case CustomType::kSagemakerDataCapture:
      return load_sagemaker(ctx);
    case CustomType::kSpeedBench:
      return load_speed_bench(ctx, content);
  }
  return std::nullopt;
}

// A load that kept no conversation says why: every row dropped by --synthesis-max-isl, or none.
core::Error no_entries_error(const CustomLoadOptions& o, const CustomDataset& out,
                             const std::string& file) {
  if (out.dropped_rows > 0) {
    return core::Error{core::ErrorKind::kInput,
                       fmt::format("--synthesis-max-isl {} dropped every row ({})",
                                   o.synthesis.max_isl.value_or(0), out.dropped_rows),
                       file, 0, "input_length"};
  }
  return core::Error{core::ErrorKind::kInput, "the dataset has no entries", file, 0,
                     "--input-file"};
}

// After the rows and the offsets: the blocks the kept rows share, and their timestamps.
void finish_custom_dataset(LoadContext& ctx) {
  CustomDataset& out = ctx.out;
  if (ctx.blocks) {
    std::vector<SynthesizedPrompt*> fresh;
    for (auto& conv : out.dataset.conversations) {
      for (auto& t : conv.turns)
        if (t.synthesized && t.synthesized->fresh_tokens > 0) fresh.push_back(&*t.synthesized);
    }
    out.dataset.blocks = ctx.blocks->build(fresh);
  }
  out.has_timestamps = true;
  for (const auto& c : out.dataset.conversations) {
    const auto ts = c.turns.front().timestamp_ms;
    if (!ts) {
      out.has_timestamps = false;
      continue;
    }
    if (!out.first_timestamp_ms || *ts < *out.first_timestamp_ms) out.first_timestamp_ms = ts;
  }
}
}  // namespace

core::Result<CustomDataset> load_custom_dataset(const CustomLoadOptions& o,
                                                std::mt19937_64& id_rng) {
  const std::string file = o.path.string();
  std::error_code ec;
  if (!fs::exists(o.path, ec))
    return core::Error{core::ErrorKind::kInput, "the file does not exist", file, 0, "--input-file"};
  const bool folder = fs::is_directory(o.path, ec);
  auto requested = requested_custom_type(o);
  if (!requested) return requested.error();
  std::optional<CustomType> type = *requested;
  const bool reads_folders = type == CustomType::kRawPayload || type == CustomType::kRandomPool ||
                             type == CustomType::kWekaTrace ||
                             type == CustomType::kSagemakerDataCapture;
  if (folder && type && !reads_folders) {
    return core::Error{
        core::ErrorKind::kInput,
        fmt::format("is a folder, but a {} dataset is a single file", type_info(*type).name), file,
        0, "--input-file"};
  }
  if (!folder && is_columnar_file(o.path)) return columnar_file_error(file);
  std::string content;
  if (!folder && !reads_folders) {
    if (auto e = check_file_size(o.path, o.memory_budget)) return *e;
    auto read = read_input_file(o.path, type ? type_info(*type).name : "dataset");
    if (!read) return read.error();
    content = std::move(*read);
  }
  std::string name = o.type.value_or("");
  if (!type) {
    auto detected = detect_file_type(o, file, folder, content, name);
    if (!detected) return detected.error();
    type = *detected;
  }
  const TypeInfo& info = type_info(*type);
  if (auto e = check_synthesis_applies(o, info)) return *e;
  CustomDataset out;
  out.type = *type;
  out.type_name = *type == CustomType::kSpeedBench ? name : std::string(info.name);
  if (o.inter_turn_delay_cap_s && *type != CustomType::kDagJsonl &&
      *type != CustomType::kWekaTrace) {
    out.warnings.push_back(fmt::format(
        "--inter-turn-delay-cap-seconds caps the recorded delays of dag_jsonl and weka_trace "
        "datasets; it does not apply to {}",
        out.type_name));
  }
  LoadContext ctx{o, file, id_rng, out, std::nullopt, 0};
  ctx.delay_cap.cap_s = o.inter_turn_delay_cap_s;
  if (auto e = set_up_prompt_blocks(ctx, info)) return *e;
  if (auto e = load_rows_of_type(ctx, *type, content)) return *e;
  if (out.dataset.conversations.empty()) return no_entries_error(o, out, file);
  out.first_record_timed = first_record_timed(out.dataset);
  if (auto e = apply_offsets(ctx)) return *e;
  // AIPerf 0.11: a typed entry count caps the conversations (after the offsets: the first N a
  // fixed schedule replays); random_pool samples that many instead.
  if (o.max_conversations && *type != CustomType::kRandomPool)
    out.uncapped_conversations = keep_first_conversations(out.dataset, *o.max_conversations);
  if (auto e = apply_prefix_synthesis(ctx)) return *e;
  report_delay_cap(ctx.delay_cap, out);
  finish_custom_dataset(ctx);
  return out;
}

}  // namespace inferperf::dataset
