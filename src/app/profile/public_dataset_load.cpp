// load_public_dataset (public_dataset.hpp): the filters and refusals checked, the source
// resolved, the records read by the dataset's family, the entry cap and --osl applied.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "app/http_policy.hpp"
#include "app/profile/public_dataset.hpp"
#include "core/rng.hpp"
#include "dataset/public_loader.hpp"
#include "dataset/sharegpt_loader.hpp"

namespace inferperf::app {

namespace {

using dataset::PublicDatasetSpec;
using dataset::PublicFamily;

bool pubload_given(const config::RunConfig& c, const char* name) {
  return c.set_options.count(name) > 0;
}

// AIPerf 0.11 (§1.5): a typed --num-dataset-entries, else a typed --num-conversations, else a
// typed --request-count caps the records read; none typed reads them all.
std::optional<std::size_t> pubload_cap(const config::RunConfig& c) {
  if (pubload_given(c, "--num-dataset-entries"))
    return static_cast<std::size_t>(std::max(0, c.input.num_dataset_entries));
  if (pubload_given(c, "--num-sessions") && c.load.num_sessions)
    return static_cast<std::size_t>(std::max<std::int64_t>(0, *c.load.num_sessions));
  if (pubload_given(c, "--request-count") && c.load.request_count)
    return static_cast<std::size_t>(std::max<std::int64_t>(0, *c.load.request_count));
  return std::nullopt;
}

core::Result<dataset::Dataset> pubload_sharegpt(const config::RunConfig& c,
                                                const core::RngFactory& rngs,
                                                const tokenizer::Tokenizer* tok,
                                                const std::filesystem::path& path) {
  const auto start = std::chrono::steady_clock::now();
  dataset::ShareGptOptions o;
  o.path = path;
  o.tokenizer = tok;
  o.check_min_completion = !c.input.osl_mean;  // AIPerf: an OSL mean lifts the minimum
  auto session_rng = rngs.stream("dataset.session_id");
  auto loaded = dataset::load_sharegpt(o, session_rng);
  if (!loaded) return loaded.error();
  std::size_t turns = 0;
  for (const auto& conv : loaded->dataset.conversations) turns += conv.turns.size();
  spdlog::info(
      "dataset: {} (sharegpt: {} entries read, {} skipped ({} without a usable human/gpt pair, {} "
      "outside the token limits), {} kept with {} turns; {:.1f} s)",
      path.string(), loaded->entries, loaded->skipped(), loaded->no_pairs, loaded->out_of_limits,
      loaded->kept(), turns,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (loaded->renamed_ids > 0) {
    spdlog::warn("{} entries repeat an earlier entry's id: their session ids got a #N suffix",
                 loaded->renamed_ids);
  }
  if (loaded->entries == 0) {
    return core::Error{core::ErrorKind::kInput, "holds no entries (an empty list)", path.string(),
                       0, ""};
  }
  if (loaded->kept() == 0) {
    return core::Error{core::ErrorKind::kInput,
                       fmt::format("no entry passed the sharegpt filter (prompt {}-{} tokens{}, "
                                   "prompt + completion at most {})",
                                   dataset::kShareGptMinTokens, dataset::kShareGptMaxPromptTokens,
                                   o.check_min_completion ? fmt::format(", completion at least {}",
                                                                        dataset::kShareGptMinTokens)
                                                          : "",
                                   dataset::kShareGptMaxTotalTokens),
                       path.string(), 0, ""};
  }
  if (const auto cap = pubload_cap(c); cap && loaded->kept() > *cap) {
    spdlog::info(
        "sharegpt: the first {} of the {} kept conversations are used (the typed entry "
        "count)",
        *cap, loaded->kept());
    loaded->dataset.conversations.resize(*cap);
  }
  return std::move(loaded->dataset);
}

core::Result<dataset::Dataset> pubload_records(const config::RunConfig& c,
                                               const core::RngFactory& rngs,
                                               const PublicDatasetSpec& spec,
                                               const PublicSource& source) {
  dataset::PublicLoadOptions o;
  o.spec = &spec;
  o.files = source.files;
  o.max_conversations = pubload_cap(c);
  auto session_rng = rngs.stream("dataset.session_id");
  auto loaded = dataset::load_public_records(o, session_rng);
  if (!loaded) return loaded.error();
  std::size_t turns = 0;
  for (const auto& conv : loaded->dataset.conversations) turns += conv.turns.size();
  spdlog::info(
      "dataset: {} ({}: {} record(s) read from {} file(s), {} without a prompt, {} "
      "conversation(s) with {} turn(s){})",
      source.files.front().string(), spec.name, loaded->records, source.files.size(),
      loaded->skipped, loaded->dataset.conversations.size(), turns,
      o.max_conversations ? fmt::format("; at most {} read", *o.max_conversations) : "");
  if (loaded->dataset.conversations.empty()) {
    const std::string what = spec.family == PublicFamily::kMtBench     ? "'prompt' list"
                             : spec.family == PublicFamily::kSpecBench ? "'turns' list"
                             : spec.prompt_template.empty()
                                 ? fmt::format("'{}' text", spec.prompt_column)
                                 : std::string("template text");
    return core::Error{core::ErrorKind::kInput,
                       fmt::format("--public-dataset {}: no record has a non-empty {} ({} read)",
                                   spec.name, what, loaded->records),
                       source.files.front().string(), 0, ""};
  }
  // --osl sets max tokens where the data has none (AIPerf's turn finalization).
  if (c.input.osl_mean) {
    auto osl_rng = rngs.stream("composer.turn.max_tokens");
    for (auto& conv : loaded->dataset.conversations)
      for (auto& t : conv.turns)
        t.max_tokens =
            core::sample_positive_normal_int(osl_rng, *c.input.osl_mean, c.input.osl_stddev);
  }
  return std::move(loaded->dataset);
}

}  // namespace

core::Result<PreparedDataset> load_public_dataset(const config::RunConfig& c,
                                                  const core::RngFactory& rngs,
                                                  const tokenizer::Tokenizer* tok) {
  const PublicDatasetSpec* spec = dataset::find_public_dataset_spec(c.input.public_dataset);
  if (!spec) {
    return core::Error{core::ErrorKind::kConfig,
                       "unknown --public-dataset " + c.input.public_dataset, "", 0, ""};
  }
  if (auto err = dataset::check_public_filters(*spec, c.input.dataset_filters)) return *err;
  if (spec->family == PublicFamily::kRefused) {
    return core::Error{core::ErrorKind::kConfig,
                       fmt::format("--public-dataset {} ({}, {}) is not supported: {}", spec->name,
                                   spec->repo, spec->modality, spec->refusal),
                       "", 0, ""};
  }
  if (spec->family == PublicFamily::kShareGpt && !tok) {
    return core::Error{core::ErrorKind::kConfig,
                       "--public-dataset sharegpt filters conversations by their token counts: it "
                       "needs --tokenizer",
                       "", 0, ""};
  }
  const PublicSubset subset{c.input.hf_subset.value_or(std::string(spec->subset)),
                            c.input.hf_subset.has_value()};
  auto source = resolve_public_source(*spec, c.input.input_file, subset,
                                      public_source_env(make_http_policy(c)));
  if (!source) return source.error();
  spdlog::info(
      "--public-dataset {}: reading {}{} ({})", spec->name, source->files.front().string(),
      source->files.size() > 1 ? fmt::format(" and {} more", source->files.size() - 1) : "",
      source->origin);
  auto loaded = spec->family == PublicFamily::kShareGpt
                    ? pubload_sharegpt(c, rngs, tok, source->files.front())
                    : pubload_records(c, rngs, *spec, *source);
  if (!loaded) return loaded.error();
  PreparedDataset out;
  out.type_name = std::string(spec->name);
  out.dataset = std::move(*loaded);
  return out;
}

}  // namespace inferperf::app
