#include "app/dataset_setup.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "dataset/custom_loader.hpp"
#include "dataset/synthetic.hpp"

namespace inferperf::app {

namespace {

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
  if (!c.input.sequence_distribution.empty()) {
    auto dist = dataset::parse_sequence_distribution(c.input.sequence_distribution);
    if (!dist) return dist.error();
    syn.sequence_distribution = *dist;
  }
  return dataset::compose_synthetic(syn, rngs, tok);
}

core::Result<PreparedDataset> from_file(const config::RunConfig& c, const core::RngFactory& rngs) {
  dataset::CustomLoadOptions lo;
  lo.path = c.input.input_file;
  if (!c.input.custom_dataset_type.empty()) lo.type = c.input.custom_dataset_type;
  if (c.load.fixed_schedule) {
    lo.start_offset_ms = c.load.fixed_schedule_start_offset_ms;
    lo.end_offset_ms = c.load.fixed_schedule_end_offset_ms;
  }
  auto session_rng = rngs.stream("dataset.session_id");
  auto custom = dataset::load_custom_dataset(lo, session_rng);
  if (!custom) return custom.error();
  PreparedDataset out;
  if (c.load.fixed_schedule) {
    for (const auto& conv : custom->dataset.conversations) {
      if (!conv.turns.front().timestamp_ms) {
        return core::Error{core::ErrorKind::kInput,
                           "first turn of session " + conv.session_id +
                               " has no 'timestamp' (--fixed-schedule needs one)",
                           c.input.input_file, 0, "timestamp"};
      }
    }
    out.schedule_zero_ms = c.load.fixed_schedule_auto_offset
                               ? custom->first_timestamp_ms.value_or(0)
                               : c.load.fixed_schedule_start_offset_ms.value_or(0.0);
  }
  // Files carry texts; --osl still sets max tokens per turn (spec 3.3).
  if (c.input.osl_mean) {
    auto osl_rng = rngs.stream("composer.turn.max_tokens");
    for (auto& conv : custom->dataset.conversations) {
      for (auto& t : conv.turns) {
        t.max_tokens =
            core::sample_positive_normal_int(osl_rng, *c.input.osl_mean, c.input.osl_stddev);
      }
    }
  }
  spdlog::info("dataset: {} ({} conversations from {} lines)", c.input.input_file,
               custom->dataset.conversations.size(), custom->lines);
  out.dataset = std::move(custom->dataset);
  return out;
}

// --model-selection-strategy: every turn targets one of the models, round robin by turn or
// uniformly at random (named stream composer.turn.model_selection).
void assign_models(const config::RunConfig& c, const core::RngFactory& rngs, dataset::Dataset& ds) {
  const auto& models = c.endpoint.model_names;
  if (models.size() < 2) return;
  auto pick_rng = rngs.stream("composer.turn.model_selection");
  std::size_t next_model = 0;
  for (auto& conv : ds.conversations) {
    for (auto& t : conv.turns) {
      const std::size_t k =
          c.endpoint.model_selection == "random"
              ? static_cast<std::size_t>(core::uniform_index(pick_rng, models.size()))
              : next_model++ % models.size();
      t.model = models[k];
    }
  }
}

}  // namespace

core::Result<PreparedDataset> prepare_dataset(const config::RunConfig& c,
                                              const core::RngFactory& rngs,
                                              const tokenizer::Tokenizer* tok) {
  PreparedDataset out;
  if (!c.input.input_file.empty()) {
    auto loaded = from_file(c, rngs);
    if (!loaded) return loaded.error();
    out = std::move(*loaded);
  } else {
    auto composed = synthetic(c, rngs, tok);
    if (!composed) return composed.error();
    out.dataset = std::move(*composed);
  }
  if (c.load.user_centric_rate && !c.input.input_file.empty()) {
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
  assign_models(c, rngs, out.dataset);
  return out;
}

}  // namespace inferperf::app
