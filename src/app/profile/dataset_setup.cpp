#include "app/profile/dataset_setup.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

#include "app/profile/public_dataset.hpp"
#include "app/profile/run_info.hpp"
#include "core/byte_size.hpp"
#include "dataset/custom_loader.hpp"
#include "dataset/memory_estimate.hpp"
#include "dataset/prompt_blocks.hpp"
#include "dataset/synthetic.hpp"
#include "dataset/synthetic_media.hpp"
#include "endpoint/endpoint.hpp"

namespace inferperf::app {

namespace {

// Whether this run is one point of a sweep: the orchestrator names the sweep in the run's
// INFERPERF_RUN_INFO (repeated runs of one point have no sweep_id).
bool run_is_a_sweep_point() {
  const char* plan = std::getenv(kRunInfoEnv);
  if (plan == nullptr) return false;
  const auto j = nlohmann::json::parse(plan, nullptr, false);
  return j.is_object() && j.contains("sweep_id");
}

// AIPerf 0.11 refuses any comma list with a fixed-schedule phase, a trace's auto-promotion
// included. The orchestrator cannot see the promotion (it reads no file), so the sweep's first
// run refuses it here, before anything is sent, and the orchestrator starts no other run.
std::optional<core::Error> promotion_in_a_sweep(const config::RunConfig& c,
                                                std::string_view type_name) {
  if (!run_is_a_sweep_point()) return std::nullopt;
  return core::Error{
      core::ErrorKind::kConfig,
      fmt::format(
          "the {} rows carry timestamps, which would replay them on a fixed schedule, and a "
          "comma list (a sweep) cannot run on a fixed schedule: add --no-fixed-schedule "
          "to drive the trace by --concurrency or --request-rate, or give one value per "
          "flag",
          type_name),
      c.input.input_file, 0, ""};
}

// The flags that size a synthetic dataset, for a refusal: what was asked ("--isl 2000000000 with
// --num-dataset-entries 100") and what to lower.
std::pair<std::string, std::string> synthetic_drivers(const config::RunConfig& c,
                                                      const dataset::SyntheticOptions& syn) {
  std::string length = syn.rankings                ? "--rankings-passages-prompt-token-mean"
                       : syn.sequence_distribution ? "--seq-dist"
                                                   : "--isl";
  std::string what =
      syn.rankings ? length
      : syn.sequence_distribution
          ? fmt::format("--seq-dist {}", core::excerpt(c.input.sequence_distribution, 60))
          : fmt::format("--isl {}", syn.isl_mean);
  what += fmt::format(" with --num-dataset-entries {}", syn.num_conversations);
  if (syn.prompt_batch_size > 1)
    what += fmt::format(", --prompt-batch-size {}", syn.prompt_batch_size);
  if (syn.turn_mean > 1) what += fmt::format(", --conversation-turn-mean {}", syn.turn_mean);
  for (const auto& [flag, tokens] :
       {std::pair{"--shared-system-prompt-length", syn.shared_system_length},
        std::pair{"--user-context-prompt-length", syn.user_context_length},
        std::pair{"--prefix-prompt-length", syn.prefix_length}}) {
    if (tokens > 0) what += fmt::format(", {} {}", flag, tokens);
  }
  return {what, length + " or --num-dataset-entries"};
}

// The synthetic media's share of the memory budget: every turn's media and each conversation's
// first body, and one raw picture, clip or video per generating thread.
void add_media_estimate(const config::RunConfig& c, const dataset::SyntheticOptions& syn,
                        dataset::DatasetEstimate& e, std::string& what, std::string& flags) {
  const auto m = dataset::estimate_media(c.media);
  const double turns = std::max(0, syn.num_conversations) * std::max(1.0, syn.turn_mean);
  e.media = dataset::saturated_bytes(m.per_turn * (turns + std::max(0, syn.num_conversations)));
  const double threads = std::max(1u, std::thread::hardware_concurrency());
  e.working = std::max(e.working, dataset::saturated_bytes(m.working * threads));
  const auto& i = c.media.image;
  if (i.enabled())
    what += fmt::format(", {} {}x{} pictures a turn", i.batch, i.width_mean, i.height_mean);
  if (c.media.audio.enabled())
    what += fmt::format(", {} {} s clips a turn", c.media.audio.batch, c.media.audio.length_mean);
  const auto& v = c.media.video;
  if (v.enabled())
    what += fmt::format(", {} {}x{} {} s videos a turn", v.batch, v.width, v.height, v.duration_s);
  flags += ", the media sizes or batch sizes";
}

// Any error a loader returns quotes at most an excerpt of the input (the loaders cap what they
// quote; this caps whatever one missed, so a 200 MB value never reaches the terminal).
core::Error bounded(core::Error e) {
  constexpr std::size_t kMaxMessageBytes = 1024;
  if (e.message.size() > kMaxMessageBytes) e.message = core::excerpt(e.message, kMaxMessageBytes);
  if (e.field.size() > core::kMaxExcerptBytes) e.field = core::excerpt(e.field);
  return e;
}

core::Result<dataset::Dataset> synthetic(const config::RunConfig& c, const core::RngFactory& rngs,
                                         const tokenizer::Tokenizer* tok) {
  dataset::SyntheticOptions syn;
  syn.num_conversations = c.input.num_dataset_entries;
  syn.isl_mean = c.input.isl_mean;
  syn.isl_stddev = c.input.isl_stddev;
  syn.osl_mean = c.input.osl_mean;
  syn.osl_stddev = c.input.osl_stddev;
  syn.prompt_batch_size = c.input.prompt_batch_size;
  syn.prefix_pool_size = c.input.prefix_pool_size;
  syn.prefix_length = c.input.prefix_length;
  syn.shared_system_length = c.input.shared_system_prompt_length.value_or(0);
  syn.user_context_length = c.input.user_context_prompt_length.value_or(0);
  syn.turn_mean = c.input.turn_mean;
  syn.turn_stddev = c.input.turn_stddev;
  syn.turn_delay_mean = c.input.turn_delay_mean_ms;
  syn.turn_delay_stddev = c.input.turn_delay_stddev_ms;
  syn.turn_delay_ratio = c.input.turn_delay_ratio;
  using config::EndpointType;
  if (c.endpoint.type == EndpointType::kNimRankings ||
      c.endpoint.type == EndpointType::kHfTeiRankings ||
      c.endpoint.type == EndpointType::kCohereRankings) {
    const auto& r = c.input.rankings;
    syn.rankings = dataset::RankingsOptions{r.passages_mean,       r.passages_stddev,
                                            r.passage_tokens_mean, r.passage_tokens_stddev,
                                            r.query_tokens_mean,   r.query_tokens_stddev};
  }
  if (!c.input.sequence_distribution.empty()) {
    auto dist = dataset::parse_sequence_distribution(c.input.sequence_distribution);
    if (!dist) return dist.error();
    syn.sequence_distribution = *dist;
  }
  const double bytes_per_token = dataset::bytes_per_token(tok);
  auto estimate = dataset::estimate_synthetic(syn, bytes_per_token);
  auto [what, flags] = synthetic_drivers(c, syn);
  if (c.media.any()) add_media_estimate(c, syn, estimate, what, flags);
  if (auto refusal = dataset::budget_refusal(estimate, c.limits.max_dataset_memory, what, flags);
      !refusal.empty()) {
    return core::Error{core::ErrorKind::kConfig, refusal, "", 0, ""};
  }
  auto ds = dataset::compose_synthetic(syn, rngs, tok);
  // A folder's decoded pictures get what the estimate left of the budget.
  const std::uint64_t budget = dataset::dataset_memory_budget(c.limits.max_dataset_memory);
  const std::uint64_t left = budget > estimate.total() ? budget - estimate.total() : 0;
  if (auto err = dataset::add_synthetic_media(ds, c.media, rngs, left)) return *err;
  spdlog::debug(
      "synthetic dataset: {} of prompt text ({} estimated at {:.2f} bytes a token); about {} in "
      "memory with request bodies and working space (limit {})",
      core::format_byte_size(dataset::dataset_text_bytes(ds)),
      core::format_byte_size(estimate.prompt_text), bytes_per_token,
      core::format_byte_size(estimate.total()),
      core::format_byte_size(dataset::dataset_memory_budget(c.limits.max_dataset_memory)));
  return ds;
}

// AIPerf 0.11 (§1.5): a typed --num-dataset-entries, --num-conversations or --request-count
// (resolve_defaults folded them into num_dataset_entries; a sweep passes its largest value as
// --num-dataset-entries) caps the file's conversations; none typed keeps them all.
std::optional<std::size_t> file_entry_cap(const config::RunConfig& c) {
  for (const char* flag : {"--num-dataset-entries", "--num-sessions", "--request-count"}) {
    if (c.set_options.count(flag))
      return static_cast<std::size_t>(std::max(0, c.input.num_dataset_entries));
  }
  return std::nullopt;
}

core::Result<PreparedDataset> from_file(const config::RunConfig& c, const core::RngFactory& rngs,
                                        const tokenizer::Tokenizer* tok) {
  dataset::CustomLoadOptions lo;
  lo.path = c.input.input_file;
  if (!c.input.custom_dataset_type.empty()) lo.type = c.input.custom_dataset_type;
  // Offsets typed without --fixed-schedule apply to a trace that promotes itself (checked below).
  const bool offsets = c.load.fixed_schedule_auto_offset || c.load.fixed_schedule_start_offset_ms ||
                       c.load.fixed_schedule_end_offset_ms;
  if (c.load.fixed_schedule || (offsets && !c.load.no_fixed_schedule)) {
    lo.start_offset_ms = c.load.fixed_schedule_start_offset_ms;
    lo.end_offset_ms = c.load.fixed_schedule_end_offset_ms;
  }
  lo.block_size = c.input.block_size;
  lo.tokenizer = tok;
  lo.seed = core::derive_seed(rngs.root_seed(), "dataset.trace.prompts");
  lo.synthesis.speedup_ratio = c.input.synthesis_speedup_ratio;
  lo.synthesis.prompt_len_multiplier = c.input.synthesis_prompt_len_multiplier;
  lo.synthesis.max_isl = c.input.synthesis_max_isl;
  lo.synthesis.max_osl = c.input.synthesis_max_osl;
  lo.synthesis.prefix_len_multiplier = c.input.synthesis_prefix_len_multiplier;
  lo.synthesis.prefix_root_multiplier = c.input.synthesis_prefix_root_multiplier;
  lo.synthesis.output_len_multiplier = c.input.synthesis_output_len_multiplier;
  lo.inter_turn_delay_cap_s = c.input.inter_turn_delay_cap_s;
  lo.num_conversations = c.input.num_dataset_entries;
  lo.max_conversations = file_entry_cap(c);
  lo.baseten_no_min_tokens = c.input.no_force_min_tokens;
  lo.baseten_omit_kv_hints = c.input.omit_kv_hints;
  lo.models = c.endpoint.model_names;
  lo.memory_budget = dataset::dataset_memory_budget(c.limits.max_dataset_memory);
  lo.bytes_per_token = dataset::bytes_per_token(tok);
  auto session_rng = rngs.stream("dataset.session_id");
  auto custom = dataset::load_custom_dataset(lo, session_rng);
  if (!custom) return custom.error();
  for (const auto& w : custom->warnings) spdlog::warn("{}", w);
  if (custom->type == dataset::CustomType::kBasetenTrace) {
    // The rows' own values would be overwritten silently: refuse the ambiguity.
    for (const auto& [key, value] : c.input.extra) {
      const bool injected = (key == "min_tokens" && !c.input.no_force_min_tokens) ||
                            ((key == "hash_ids" || key == "block_size") && !c.input.omit_kv_hints);
      if (injected) {
        return core::Error{core::ErrorKind::kConfig,
                           "--extra-inputs " + key +
                               " conflicts with the value baseten_trace sends per row (pass " +
                               (key == "min_tokens" ? "--no-force-min-tokens" : "--omit-kv-hints") +
                               " to send your own)",
                           "", 0, "--extra-inputs"};
      }
    }
  }
  PreparedDataset out;
  const auto& info = dataset::type_info(custom->type);
  out.type_name = custom->type_name;
  out.is_trace = info.is_trace;
  // As AIPerf: a trace whose first record carries timing replays on its clock unless told not to
  // (or unless another load mode was asked for).
  const bool promotes = !c.load.fixed_schedule && info.is_trace && custom->first_record_timed &&
                        custom->has_timestamps && !c.load.no_fixed_schedule;
  // AIPerf 0.11 refuses a rate, users or a smoothness for a trace it promotes (0.6 ignored them).
  for (const char* flag : {"--request-rate", "--num-users", "--arrival-smoothness"}) {
    if (promotes && c.set_options.count(flag)) {
      return core::Error{core::ErrorKind::kConfig,
                         std::string(info.name) +
                             " rows carry timestamps, so they replay on a "
                             "fixed schedule, which " +
                             flag +
                             " cannot drive: add --no-fixed-schedule to run the trace at that "
                             "load instead",
                         c.input.input_file, 0, flag};
    }
  }
  const bool other_mode = c.set_options.count("--dataset-sampling-strategy");
  if (promotes && !other_mode) {
    if (auto refused = promotion_in_a_sweep(c, info.name)) return *refused;
    out.promoted_fixed_schedule = true;
    spdlog::info(
        "{} rows carry timestamps: replaying them on a fixed schedule (--no-fixed-schedule to "
        "drive the trace by concurrency or rate instead)",
        info.name);
  }
  const bool fixed = c.load.fixed_schedule || out.promoted_fixed_schedule;
  if (offsets && !fixed) {
    return core::Error{core::ErrorKind::kConfig,
                       "--fixed-schedule-*-offset options need a fixed-schedule phase, and " +
                           std::string(info.name) +
                           " rows without timestamps do not replay on one (add --fixed-schedule "
                           "for a trace with timestamps)",
                       c.input.input_file, 0, "--fixed-schedule-start-offset"};
  }
  if (fixed) {
    for (const auto& conv : custom->dataset.conversations) {
      if (!conv.turns.front().timestamp_ms) {
        return core::Error{core::ErrorKind::kInput,
                           "first turn of session " + core::excerpt(conv.session_id) +
                               " has no 'timestamp' (--fixed-schedule needs one)",
                           c.input.input_file, 0, "timestamp"};
      }
    }
    // AIPerf 0.11 offsets automatically (the first timestamp is t = 0) unless a start offset is
    // given, which then is t = 0.
    out.schedule_zero_ms = c.load.fixed_schedule_start_offset_ms
                               ? *c.load.fixed_schedule_start_offset_ms
                               : custom->first_timestamp_ms.value_or(0);
  }
  // --osl sets max tokens where the file does not (docs/datasets.md; a row's output_length wins).
  if (c.input.osl_mean) {
    auto osl_rng = rngs.stream("composer.turn.max_tokens");
    for (auto& conv : custom->dataset.conversations) {
      for (auto& t : conv.turns) {
        const int sampled =
            core::sample_positive_normal_int(osl_rng, *c.input.osl_mean, c.input.osl_stddev);
        if (!t.max_tokens && !t.payload) t.max_tokens = sampled;
      }
    }
  }
  std::size_t turns = 0;
  for (const auto& conv : custom->dataset.conversations) turns += conv.turns.size();
  spdlog::info("dataset: {} ({}: {} conversations, {} turns from {} records{}{})",
               c.input.input_file, custom->type_name, custom->dataset.conversations.size(), turns,
               custom->lines,
               custom->block_size > 0 ? fmt::format(", {}-token blocks", custom->block_size) : "",
               custom->dataset.blocks && custom->dataset.blocks->size() > 0
                   ? fmt::format(", {} unique hash-id blocks", custom->dataset.blocks->size())
                   : "");
  if (lo.max_conversations && custom->uncapped_conversations > *lo.max_conversations) {
    spdlog::info("kept the first {} of {} conversations (the typed entry count)",
                 *lo.max_conversations, custom->uncapped_conversations);
  }
  if (custom->dropped_rows > 0) {
    spdlog::info("--synthesis-max-isl {} dropped {} row(s)", c.input.synthesis_max_isl.value_or(0),
                 custom->dropped_rows);
  }
  out.dataset = std::move(custom->dataset);
  return out;
}

// --model-selection-strategy: every turn targets one of the models, round robin by turn or
// uniformly at random (named stream composer.turn.model_selection).
void assign_models(const config::RunConfig& c, const core::RngFactory& rngs, dataset::Dataset& ds) {
  const auto& models = c.endpoint.model_names;
  if (models.size() < 2 || ds.models_assigned) return;
  auto pick_rng = rngs.stream("composer.turn.model_selection");
  std::size_t next_model = 0;
  for (auto& conv : ds.conversations) {
    for (auto& t : conv.turns) {
      const std::size_t k =
          c.endpoint.model_selection == config::ModelSelection::kRandom
              ? static_cast<std::size_t>(core::uniform_index(pick_rng, models.size()))
              : next_model++ % models.size();
      t.model = models[k];
    }
  }
}

// A loaded dataset (a file, a public dataset) against the budget once its size is known: the
// loader checked the file and the synthesized prompts as it went; this adds the kept request
// bodies and inputs.json's working space, and catches what sampling multiplies (random_pool).
std::string loaded_over_budget(const config::RunConfig& c, const dataset::Dataset& ds,
                               const tokenizer::Tokenizer* tok) {
  if (c.input.input_file.empty() && c.input.public_dataset.empty()) return {};
  const auto estimate = dataset::estimate_loaded(ds, dataset::bytes_per_token(tok));
  const std::string source =
      (c.input.public_dataset.empty() ? "--input-file " + core::excerpt(c.input.input_file)
                                      : "--public-dataset " + c.input.public_dataset) +
      fmt::format(" ({} conversations)", ds.conversations.size());
  return dataset::budget_refusal(estimate, c.limits.max_dataset_memory, source,
                                 "its size (a smaller file or fewer --num-dataset-entries)");
}

core::Result<PreparedDataset> prepare_unguarded(const config::RunConfig& c,
                                                const core::RngFactory& rngs,
                                                const tokenizer::Tokenizer* tok) {
  PreparedDataset out;
  if (!c.input.public_dataset.empty()) {  // --input-file, if given, is its file
    auto loaded = load_public_dataset(c, rngs, tok);
    if (!loaded) return loaded.error();
    out = std::move(*loaded);
  } else if (!c.input.input_file.empty()) {
    auto loaded = from_file(c, rngs, tok);
    if (!loaded) return loaded.error();
    out = std::move(*loaded);
  } else {
    auto composed = synthetic(c, rngs, tok);
    if (!composed) return composed.error();
    out.dataset = std::move(*composed);
  }
  if (auto refusal = loaded_over_budget(c, out.dataset, tok); !refusal.empty())
    return core::Error{core::ErrorKind::kInput, refusal, "", 0, ""};
  if (c.load.user_centric_rate &&
      (!c.input.input_file.empty() || !c.input.public_dataset.empty())) {
    // Users are paced per turn; single-turn data would make it a plain constant rate.
    double turns = 0;
    for (const auto& conv : out.dataset.conversations) turns += conv.turns.size();
    const double mean = out.dataset.conversations.empty()
                            ? 0.0
                            : turns / static_cast<double>(out.dataset.conversations.size());
    if (mean < 1.5) {
      return core::Error{core::ErrorKind::kInput,
                         fmt::format("--user-centric-rate simulates multi-turn users, but the "
                                     "conversations average {:.2f} turns (at least 2 needed)",
                                     mean),
                         c.input.input_file, 0, "turns"};
    }
  }
  using config::EndpointType;
  const EndpointType type = c.endpoint.type;
  // Which endpoints send a turn's images, its audio and video, and chat-style message rows
  // verbatim (anything else would be dropped silently: a different workload than the file's).
  const bool chat_like = type == EndpointType::kChat || type == EndpointType::kChatEmbeddings;
  const bool sends_av = chat_like || type == EndpointType::kTemplate;
  const bool sends_images = sends_av || type == EndpointType::kNimEmbeddings ||
                            type == EndpointType::kImageRetrieval ||
                            type == EndpointType::kResponses || type == EndpointType::kMessages ||
                            type == EndpointType::kImageEdit;
  const char* type_name = config::to_string(type);
  for (const auto& conv : out.dataset.conversations) {
    for (const auto& t : conv.turns) {
      for (const auto& m : t.media) {
        const bool image = m.kind == dataset::MediaItem::Kind::kImage;
        if (image ? !sends_images : !sends_av) {
          return core::Error{
              core::ErrorKind::kConfig,
              fmt::format("the dataset has {}, which --endpoint-type {} does not send",
                          image ? "images" : "audio or video", type_name),
              c.input.input_file, 0, "--endpoint-type"};
        }
      }
      if (const std::string why = endpoint::turn_input_problem(type, t); !why.empty())
        return core::Error{core::ErrorKind::kConfig, why, c.input.input_file, 0, "--endpoint-type"};
      if (t.messages && !chat_like) {
        // A completions prompt list would be a batch of separate prompts, not one conversation;
        // Responses and Anthropic take other message shapes than the chat rows carry.
        return core::Error{core::ErrorKind::kConfig,
                           fmt::format("the dataset has chat 'messages' rows, which "
                                       "--endpoint-type {} does not send",
                                       type_name),
                           c.input.input_file, 0, "--endpoint-type"};
      }
      if (type == EndpointType::kImageRetrieval && t.media.empty() && !t.payload) {
        return core::Error{core::ErrorKind::kConfig,
                           "--endpoint-type image_retrieval sends images; the dataset has a turn "
                           "without any (give an --input-file with image fields)",
                           c.input.input_file, 0, "image"};
      }
    }
  }
  assign_models(c, rngs, out.dataset);
  return out;
}

}  // namespace

core::Result<PreparedDataset> prepare_dataset(const config::RunConfig& c,
                                              const core::RngFactory& rngs,
                                              const tokenizer::Tokenizer* tok) {
  try {
    auto prepared = prepare_unguarded(c, rngs, tok);
    if (!prepared) return bounded(prepared.error());
    return prepared;
  } catch (const std::bad_alloc&) {
    // The estimate let it through, but the machine had less to spare than the budget says.
    return core::Error{
        core::ErrorKind::kRun,
        fmt::format(
            "out of memory while generating the dataset (the dataset memory budget is "
            "{}): lower --isl / --num-dataset-entries or use a smaller --input-file, or "
            "set --max-dataset-memory below what this machine can spare",
            core::format_byte_size(dataset::dataset_memory_budget(c.limits.max_dataset_memory))),
        "", 0, ""};
  }
}

ExpectedWorkload::ExpectedWorkload(const dataset::Dataset& ds, std::string dataset_type) : ds_(ds) {
  e_.dataset_type = std::move(dataset_type);
  for (const auto& conv : ds.conversations) by_id_.emplace(conv.session_id, &conv);
}

void ExpectedWorkload::add(const records::RequestRecord& r) {
  if (r.phase != records::Phase::kProfiling || r.error) return;
  ++e_.rows;
  const auto it = by_id_.find(r.conversation_id);
  const auto k = static_cast<std::size_t>(r.turn_index);
  if (it == by_id_.end() || k >= it->second->turns.size()) {
    all_isl_ = all_osl_ = false;
    return;
  }
  const auto& conv = *it->second;
  // Later turns that accumulate history send more than the row declared.
  const bool alone = conv.context_mode == dataset::ContextMode::kMessageArrayWithResponses ||
                     (k == 0 && ds_.system_message.empty() && conv.user_context.empty());
  const int declared = conv.turns[k].synthetic_tokens;  // the row's input_length
  if (alone && declared > 0)
    isl_ += declared;
  else
    all_isl_ = false;
  if (r.requested_osl)
    osl_ += *r.requested_osl;
  else
    all_osl_ = false;
}

report::WorkloadExpectation ExpectedWorkload::result() const {
  report::WorkloadExpectation e = e_;
  if (e.rows > 0 && all_isl_) e.isl_avg = isl_ / static_cast<double>(e.rows);
  if (e.rows > 0 && all_osl_) e.osl_avg = osl_ / static_cast<double>(e.rows);
  return e;
}

report::WorkloadExpectation expected_workload(const dataset::Dataset& ds,
                                              const std::vector<records::RequestRecord>& recs,
                                              const std::string& dataset_type) {
  ExpectedWorkload w(ds, dataset_type);
  for (const auto& r : recs) w.add(r);
  return w.result();
}

}  // namespace inferperf::app
