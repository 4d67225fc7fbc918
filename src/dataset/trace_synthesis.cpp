#include "dataset/trace_synthesis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/byte_size.hpp"
#include "core/rng.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/memory_estimate.hpp"

namespace inferperf::dataset {

namespace {

// The ids that occur more than once over every record.
std::unordered_set<std::int64_t> synth_shared_ids(const std::vector<PrefixRecord>& records) {
  std::unordered_map<std::int64_t, int> counts;
  for (const auto& r : records)
    for (auto id : r.hash_ids) ++counts[id];
  std::unordered_set<std::int64_t> shared;
  for (const auto& [id, n] : counts)
    if (n > 1) shared.insert(id);
  return shared;
}

// The row's prefix after the prefix multiplier, and that prefix's length in tokens.
std::vector<std::int64_t> synth_scaled_prefix(const std::vector<std::int64_t>& prefix, double m,
                                              std::int64_t whole_m, long long block,
                                              std::int64_t& next_id, long long& prefix_tokens) {
  std::vector<std::int64_t> out;
  if (m > 1.0) {
    for (auto h : prefix)
      for (std::int64_t k = 0; k < whole_m; ++k) out.push_back(h * whole_m + k);
    const auto target = static_cast<std::size_t>(std::ceil(static_cast<double>(prefix.size()) * m));
    while (out.size() < target) out.push_back(++next_id);
    prefix_tokens = static_cast<long long>(out.size()) * block;
  } else if (m < 1.0) {
    const auto keep = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::trunc(static_cast<double>(prefix.size()) * m)));
    out.assign(prefix.begin(),
               prefix.begin() + static_cast<std::ptrdiff_t>(std::min(keep, prefix.size())));
    prefix_tokens = static_cast<long long>(keep) * block;
  } else {
    out = prefix;
    prefix_tokens = static_cast<long long>(prefix.size()) * block;
  }
  return out;
}

}  // namespace

std::optional<std::string> restructure_prefixes(std::vector<PrefixRecord>& records,
                                                const SynthesisOptions& syn, int block_size,
                                                std::uint64_t seed) {
  const auto shared = synth_shared_ids(records);
  std::int64_t max_shared = 0;
  for (auto id : shared) max_shared = std::max(max_shared, id);
  const double m = syn.prefix_len_multiplier;
  const std::int64_t whole_m = m > 1.0 ? static_cast<std::int64_t>(std::trunc(m)) : 1;
  std::int64_t next_id = (max_shared + 1) * whole_m;  // the last id handed out so far
  const long long block = block_size;
  for (std::size_t i = 0; i < records.size(); ++i) {
    PrefixRecord& r = records[i];
    if (r.hash_ids.empty()) continue;
    std::vector<std::int64_t> prefix;
    for (auto id : r.hash_ids) {
      if (!shared.count(id)) break;
      prefix.push_back(id);
    }
    const long long own = r.input_length - static_cast<long long>(prefix.size()) * block;
    if (own < 0) {
      return fmt::format(
          "row {}: input_length {} is shorter than its {} shared prefix block(s) of {} tokens", i,
          r.input_length, prefix.size(), block_size);
    }
    long long prefix_tokens = 0;
    auto ids = synth_scaled_prefix(prefix, m, whole_m, block, next_id, prefix_tokens);
    const auto own_tokens =
        static_cast<long long>(std::trunc(static_cast<double>(own) * syn.prompt_len_multiplier));
    for (long long b = 0; b < (own_tokens + block - 1) / block; ++b) ids.push_back(++next_id);
    r.hash_ids = std::move(ids);
    r.input_length = prefix_tokens + own_tokens;
  }
  if (syn.prefix_root_multiplier > 1) {
    std::mt19937_64 rng(core::derive_seed(seed, "dataset.synthesis.prefix_root"));
    const std::int64_t offset = next_id + 1;
    for (auto& r : records) {
      if (r.hash_ids.empty()) continue;
      const auto tree = static_cast<std::int64_t>(
          core::uniform_index(rng, static_cast<std::uint64_t>(syn.prefix_root_multiplier)));
      for (auto& id : r.hash_ids) id += tree * offset;
    }
  }
  return std::nullopt;
}

long long synthesized_output_length(long long output_length, const SynthesisOptions& syn) {
  long long out = output_length;
  if (syn.output_len_multiplier != 1.0) {
    // Rounded half to even (the default rounding mode), as AIPerf.
    const double scaled =
        std::nearbyint(static_cast<double>(output_length) * syn.output_len_multiplier);
    out = std::max(1LL, static_cast<long long>(std::min(scaled, 2147483647.0)));
  }
  if (syn.max_osl) out = std::min<long long>(out, *syn.max_osl);
  return out;
}

std::optional<core::Error> apply_prefix_synthesis(LoadContext& ctx) {
  const SynthesisOptions& syn = ctx.options.synthesis;
  if (!ctx.blocks || !(syn.restructures() || syn.prompt_len_multiplier != 1.0)) return std::nullopt;
  std::vector<Turn*> turns;
  std::vector<PrefixRecord> records;
  for (auto& conv : ctx.out.dataset.conversations) {
    for (auto& t : conv.turns) {
      if (!t.synthesized || t.synthesized->hash_ids.empty()) continue;
      turns.push_back(&t);
      records.push_back({t.synthesized->hash_ids, t.synthesized->input_length});
    }
  }
  if (turns.empty()) return std::nullopt;
  const int b = ctx.blocks->block_size();
  if (auto e = restructure_prefixes(records, syn, b, ctx.options.seed))
    return ctx.error(0, "hash_ids", "--synthesis-*: " + *e);
  // The rows' blocks change size and number: a fresh builder learns them again.
  ctx.blocks.emplace(b, ctx.options.tokenizer, ctx.options.seed);
  double fresh_tokens = 0;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    PrefixRecord& r = records[i];
    if (syn.max_isl && r.input_length > *syn.max_isl) {
      // Capped after reshaping: full blocks as far as the cap reaches, fresh text after them.
      r.input_length = *syn.max_isl;
      r.hash_ids.resize(
          std::min<std::size_t>(r.hash_ids.size(), static_cast<std::size_t>(*syn.max_isl / b)));
    }
    r.input_length = std::clamp<long long>(r.input_length, 1, kMaxRowTokens);
    const int length = static_cast<int>(r.input_length);
    if (auto e = ctx.blocks->require(r.hash_ids, length))
      return ctx.error(0, "hash_ids", "--synthesis-*: " + *e);
    SynthesizedPrompt& p = *turns[i]->synthesized;
    p.input_length = length;
    p.hash_ids = std::move(r.hash_ids);
    p.fresh_tokens = length - ctx.blocks->covered_tokens(p.hash_ids, length);
    turns[i]->synthetic_tokens = length;
    fresh_tokens += p.fresh_tokens;
  }
  const double bytes = (static_cast<double>(ctx.blocks->required_tokens()) + fresh_tokens) *
                       ctx.options.bytes_per_token;
  if (ctx.options.memory_budget > 0 && bytes > static_cast<double>(ctx.options.memory_budget)) {
    return ctx.error(0, "--synthesis-*",
                     fmt::format("the reshaped rows ask for about {} of prompt text, more than "
                                 "the dataset memory budget of {} (raise --max-dataset-memory)",
                                 core::format_byte_size(static_cast<std::uint64_t>(bytes)),
                                 core::format_byte_size(ctx.options.memory_budget)));
  }
  return std::nullopt;
}

double DelayCap::apply(double delay_ms) {
  max_seen_ms = std::max(max_seen_ms, delay_ms);
  if (!cap_s || delay_ms <= *cap_s * 1000.0) return delay_ms;
  ++capped;
  return *cap_s * 1000.0;
}

// The delays --inter-turn-delay-cap-seconds lowered, or a recorded delay over a minute without it.
void report_delay_cap(const DelayCap& cap, CustomDataset& out) {
  out.capped_delays = cap.capped;
  if (cap.capped > 0) {
    out.warnings.push_back(fmt::format(
        "--inter-turn-delay-cap-seconds {}: capped {} per-turn delay(s) (longest recorded: "
        "{:.1f} ms)",
        *cap.cap_s, cap.capped, cap.max_seen_ms));
  } else if (!cap.cap_s && cap.max_seen_ms > 60'000.0) {
    out.warnings.push_back(fmt::format(
        "a recorded per-turn delay is {:.1f} ms (over a minute): the run will wait that long; "
        "--inter-turn-delay-cap-seconds caps it",
        cap.max_seen_ms));
  }
}

}  // namespace inferperf::dataset
