#include "dataset/public_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace inferperf::dataset {

namespace {

// Exgentic's recorded harnesses, source models and (v2) benchmarks.
constexpr std::array<std::string_view, 5> kPubHarnesses = {"claude_code", "openai_solo",
                                                           "smolagents_code", "tool_calling",
                                                           "tool_calling_with_shortlisting"};
constexpr std::array<std::string_view, 6> kPubSourceModels = {
    "DeepSeek-V3.2",        "Kimi-K2.5", "claude-opus-4-5",
    "gemini-3-pro-preview", "gpt-4.1",   "gpt-5.2-2025-12-11"};
constexpr std::array<std::string_view, 6> kPubBenchmarks = {
    "appworld", "browsecompplus", "swebench", "tau2_airline", "tau2_retail", "tau2_telecom"};

constexpr std::array<PublicFilterKey, 2> kPubExgenticFilters = {{
    {"harness", kPubHarnesses},
    {"source_model", kPubSourceModels},
}};
constexpr std::array<PublicFilterKey, 3> kPubExgenticV2Filters = {{
    {"harness", kPubHarnesses},
    {"source_model", kPubSourceModels},
    {"benchmark", kPubBenchmarks},
}};

constexpr std::string_view kPubTraceRefusal =
    "it replays recorded agent traces (message parts, tool definitions, per-call output limits "
    "and span timing), which inferperf does not convert yet; replay such traces with "
    "--input-file and --custom-dataset-type (e.g. mooncake_trace with `messages`)";
constexpr std::string_view kPubImageRefusal =
    "each request carries the record's image, decoded from the dataset's Parquet/Arrow data; "
    "sending the text alone would be a different workload, and public image datasets come with "
    "multimodal media support";
constexpr std::string_view kPubVideoRefusal =
    "each request carries the record's video; sending the question alone would be a different "
    "workload, and public video datasets come with multimodal media support";
constexpr std::string_view kPubAudioRefusal =
    "each request carries the record's audio clip, decoded from the dataset's Parquet/Arrow data "
    "and sent as WAV; public speech datasets come with multimodal media support";

constexpr std::string_view kPubBlazeditTemplate =
    "Given a code file, please apply the change requests and generate the new file.\n\n"
    "Original file:\n```python\n{code}\n```\n\nChange request:\n{change_request}\n\n"
    "Please generate the new code file in the \"New file\" section below.";

PublicDatasetSpec instruction(std::string_view name, std::string_view repo, std::string_view split,
                              std::string_view column, std::string_view subset = "") {
  PublicDatasetSpec s;
  s.name = name;
  s.repo = repo;
  s.revision = "main";
  s.subset = subset;
  s.split = split;
  s.family = PublicFamily::kInstruction;
  s.prompt_column = column;
  return s;
}

PublicDatasetSpec refused(std::string_view name, std::string_view repo, std::string_view split,
                          std::string_view subset, std::string_view modality,
                          std::string_view why) {
  PublicDatasetSpec s;
  s.name = name;
  s.repo = repo;
  s.revision = "main";
  s.subset = subset;
  s.split = split;
  s.family = PublicFamily::kRefused;
  s.modality = modality;
  s.refusal = why;
  return s;
}

std::vector<PublicDatasetSpec> build_public_registry() {
  std::vector<PublicDatasetSpec> r;
  auto exgentic_v2 = refused("exgentic_v2", "Exgentic/agent-llm-traces-v2", "train", "",
                             "agent trace", kPubTraceRefusal);
  exgentic_v2.filters = kPubExgenticV2Filters;
  r.push_back(exgentic_v2);
  auto exgentic = refused("exgentic", "Exgentic/agent-llm-traces", "train", "", "agent trace",
                          kPubTraceRefusal);
  exgentic.revision = "70036b93a04e61b0ea2706a68b962f4f26774587";
  exgentic.filters = kPubExgenticFilters;
  r.push_back(exgentic);

  PublicDatasetSpec sharegpt;
  sharegpt.name = "sharegpt";
  sharegpt.repo = "anon8231489123/ShareGPT_Vicuna_unfiltered";
  sharegpt.revision = "main";
  sharegpt.family = PublicFamily::kShareGpt;
  sharegpt.filename = "ShareGPT_V3_unfiltered_cleaned_split.json";
  r.push_back(sharegpt);

  r.push_back(instruction("aimo", "AI-MO/NuminaMath-TIR", "train", "problem"));
  r.push_back(refused("mmstar", "Lin-Chen/MMStar", "val", "", "image", kPubImageRefusal));
  r.push_back(refused("mmvu", "yale-nlp/MMVU", "validation", "", "video", kPubVideoRefusal));
  r.push_back(refused("vision_arena", "lmarena-ai/VisionArena-Chat", "train", "", "image",
                      kPubImageRefusal));
  r.push_back(refused("llava_onevision", "lmms-lab/LLaVA-OneVision-Data", "train", "sharegpt4o",
                      "image", kPubImageRefusal));
  r.push_back(instruction("aimo_aime", "AI-MO/aimo-validation-aime", "train", "problem"));
  r.push_back(instruction("aimo_numina_cot", "AI-MO/NuminaMath-CoT", "train", "problem"));
  r.push_back(instruction("aimo_numina_1_5", "AI-MO/NuminaMath-1.5", "train", "problem"));

  PublicDatasetSpec spec_bench;
  spec_bench.name = "spec_bench";
  spec_bench.family = PublicFamily::kSpecBench;
  spec_bench.filename = "spec_bench.jsonl";
  spec_bench.url =
      "https://raw.githubusercontent.com/hemingkx/Spec-Bench/"
      "fd2c1cd7d2201ef71db4c5f4e455008f017967bf/data/spec_bench/question.jsonl";
  r.push_back(spec_bench);

  r.push_back(instruction("spec_al_gsm8k", "openai/gsm8k", "test", "question", "main"));
  r.push_back(instruction("spec_al_math500", "HuggingFaceH4/MATH-500", "test", "problem"));
  r.push_back(instruction("spec_al_humaneval", "openai/openai_humaneval", "test", "prompt"));
  r.push_back(instruction("spec_al_mbpp", "google-research-datasets/mbpp", "test", "text", "full"));
  auto mtbench = instruction("spec_al_mtbench", "HuggingFaceH4/mt_bench_prompts", "train", "");
  mtbench.family = PublicFamily::kMtBench;
  r.push_back(mtbench);
  r.push_back(instruction("instruct_coder", "likaixin/InstructCoder", "train", "instruction"));
  auto blazedit_5k = instruction("blazedit_5k", "vdaita/edit_5k_char", "train", "change_request");
  blazedit_5k.prompt_template = kPubBlazeditTemplate;
  r.push_back(blazedit_5k);
  auto blazedit_10k =
      instruction("blazedit_10k", "vdaita/edit_10k_char", "train", "change_request");
  blazedit_10k.prompt_template = kPubBlazeditTemplate;
  r.push_back(blazedit_10k);

  r.push_back(refused("librispeech", "openslr/librispeech_asr", "test", "clean", "audio",
                      kPubAudioRefusal));
  r.push_back(refused("voxpopuli", "facebook/voxpopuli", "test", "en", "audio", kPubAudioRefusal));
  r.push_back(
      refused("gigaspeech", "speechcolab/gigaspeech", "test", "xs", "audio", kPubAudioRefusal));
  r.push_back(refused("ami", "edinburghcstr/ami", "test", "ihm", "audio", kPubAudioRefusal));
  r.push_back(
      refused("spgispeech", "kensho/spgispeech", "test", "test", "audio", kPubAudioRefusal));
  return r;
}

std::string pub_lower(std::string_view s) {
  std::string out(s);
  for (auto& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::string pub_join(std::span<const std::string_view> items) {
  std::string out;
  for (const auto& v : items) out += (out.empty() ? "" : ", ") + std::string(v);
  return out;
}

}  // namespace

std::span<const PublicDatasetSpec> public_datasets() {
  static const std::vector<PublicDatasetSpec> registry = build_public_registry();
  return registry;
}

const PublicDatasetSpec* find_public_dataset_spec(std::string_view name) {
  for (const auto& s : public_datasets())
    if (s.name == name) return &s;
  return nullptr;
}

std::optional<core::Error> check_public_filters(const PublicDatasetSpec& spec,
                                                const DatasetFilters& filters) {
  if (filters.empty()) return std::nullopt;
  auto fail = [](std::string msg) {
    return core::Error{core::ErrorKind::kConfig, std::move(msg), "", 0, ""};
  };
  if (spec.filters.empty()) {
    return fail(
        fmt::format("--dataset-filter: --public-dataset {} does not support filters (only "
                    "exgentic and exgentic_v2 do)",
                    spec.name));
  }
  for (const auto& filter : filters) {
    // Named references, not a structured binding: clang 14 cannot capture those in a lambda.
    const auto& key = filter.first;
    const auto& value = filter.second;
    const auto k = std::find_if(spec.filters.begin(), spec.filters.end(),
                                [&](const PublicFilterKey& f) { return f.key == key; });
    if (k == spec.filters.end()) {
      std::vector<std::string_view> keys;
      for (const auto& f : spec.filters) keys.push_back(f.key);
      return fail(
          fmt::format("--dataset-filter {}={}: --public-dataset {} has no filter '{}' "
                      "(available: {})",
                      key, value, spec.name, key, pub_join(keys)));
    }
    if (k->values.empty()) continue;
    const bool known = std::any_of(k->values.begin(), k->values.end(), [&](std::string_view v) {
      return pub_lower(v) == pub_lower(value);
    });
    if (!known) {
      return fail(fmt::format("--dataset-filter {}={}: unknown {} (available: {})", key, value, key,
                              pub_join(k->values)));
    }
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
