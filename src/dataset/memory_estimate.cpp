#include "dataset/memory_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "core/byte_size.hpp"
#include "dataset/prompt_blocks.hpp"

namespace inferperf::dataset {

namespace {

// Bookkeeping beside the text: the structs themselves, a session id on the heap, a prompt job
// and its target pointer, the run's session shape and the kept body's string header.
constexpr double kPerConversation = sizeof(Conversation) + 160.0;
constexpr double kPerTurn = sizeof(Turn) + 96.0;
// A request body's JSON around its text (model, role, max tokens, stream options).
constexpr double kBodyOverhead = 256.0;
// Generating one prompt of n tokens holds its corpus window's ids and the re-tokenized ids
// (4 bytes each, twice) besides the text and the counted copy of it.
constexpr double kGenerationIdBytes = 8.0;
// inputs.json holds one conversation at a time: the request bodies as JSON, their dump and its
// indented copy; the 1 MiB output chunk is flushed past 1 MiB.
constexpr double kInputsJsonCopies = 3.0;
constexpr double kInputsJsonChunk = 2.0 * 1024 * 1024;

// The mean of sample_positive_normal_int(mean, sd) (its ceil adds half a token), and a value a
// draw stays below with near certainty (3 standard deviations).
double expected(double mean, double sd) {
  return std::max(1.0, mean + (sd > 0 ? 0.5 : 0.0));
}
double high(double mean, double sd) {
  return std::max(1.0, mean + 3.0 * std::max(sd, 0.0));
}

struct TurnTokens {
  double mean = 0;     // prompt tokens of an average turn
  double high = 0;     // of a large turn
  double longest = 0;  // the longest single prompt of a turn (what one thread generates)
};

TurnTokens turn_tokens(const SyntheticOptions& o) {
  if (o.rankings) {
    const auto& r = *o.rankings;
    const double passages = expected(r.passages_mean, r.passages_stddev);
    const double passage = expected(r.passage_tokens_mean, r.passage_tokens_stddev);
    const double passage_hi = high(r.passage_tokens_mean, r.passage_tokens_stddev);
    const double query_hi = high(r.query_tokens_mean, r.query_tokens_stddev);
    return {expected(r.query_tokens_mean, r.query_tokens_stddev) + passages * passage,
            query_hi + high(r.passages_mean, r.passages_stddev) * passage_hi,
            std::max(query_hi, passage_hi)};
  }
  const double batch = std::max(1, o.prompt_batch_size);
  TurnTokens t;
  if (o.sequence_distribution && !o.sequence_distribution->pairs.empty()) {
    double weight = 0;
    for (const auto& p : o.sequence_distribution->pairs) {
      weight += p.probability;
      t.mean += p.probability * expected(p.isl, p.isl_stddev);
      t.longest = std::max(t.longest, high(p.isl, p.isl_stddev));
    }
    t.mean = weight > 0 ? t.mean / weight : t.longest;
  } else {
    t.mean = expected(o.isl_mean, o.isl_stddev);
    t.longest = high(o.isl_mean, o.isl_stddev);
  }
  t.mean *= batch;
  t.high = t.longest * batch;
  return t;
}

}  // namespace

double bytes_per_token(const tokenizer::Tokenizer* tok, std::string_view corpus) {
  if (!tok) return kWordBytesPerToken;
  const std::vector<std::string> chunks = corpus_chunks(corpus, 2000);
  constexpr std::size_t kSlices = 12;
  const std::size_t step = std::max<std::size_t>(1, chunks.size() / kSlices);
  double most = 0;
  for (std::size_t i = 0; i < chunks.size(); i += step) {
    const std::size_t n = tok->count(chunks[i]);
    if (n > 0) most = std::max(most, static_cast<double>(chunks[i].size()) / n);
  }
  return most > 0 ? most * 1.1 : kWordBytesPerToken;
}

std::uint64_t saturated_bytes(double x) {
  if (!(x > 0)) return 0;
  return x >= 9.2e18 ? static_cast<std::uint64_t>(9.2e18) : static_cast<std::uint64_t>(x);
}

std::uint64_t DatasetEstimate::total() const {
  // Each part is at most 9.2e18 (saturated_bytes); their sum must not wrap past 2^64 either.
  std::uint64_t sum = 0;
  for (const std::uint64_t part : {prompt_text, payloads, working, structures, media})
    sum = part > UINT64_MAX - sum ? UINT64_MAX : sum + part;
  return sum;
}

DatasetEstimate estimate_synthetic(const SyntheticOptions& o, double b, unsigned threads) {
  const double n = std::max(0, o.num_conversations);
  const double turns = expected(o.turn_mean, o.turn_stddev);
  const double turns_hi = high(o.turn_mean, o.turn_stddev);
  const TurnTokens t = turn_tokens(o);
  const double prefix = o.prefix_length > 0 && o.prefix_pool_size > 0 ? o.prefix_length : 0.0;
  const double pool = prefix > 0 ? o.prefix_pool_size : 0.0;
  const double context = std::max(0, o.user_context_length);
  const double system = std::max(0, o.shared_system_length);
  DatasetEstimate e;
  // Every first turn also holds a copy of its prefix (prefix + " " + text).
  e.prompt_text =
      saturated_bytes(b * (n * (turns * t.mean + context + prefix) + pool * prefix + system));
  // Each conversation's first body carries the system prompt, its context, prefix and turn.
  e.payloads = saturated_bytes(n * (b * (t.mean + context + prefix + system) + kBodyOverhead));
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const double jobs = n * turns * std::max(1, o.prompt_batch_size);
  const double busy = std::min<double>(threads, std::floor(jobs / 4) + 1);
  const double longest = std::max({t.longest, prefix, context, system});
  const double generating = busy * longest * (kGenerationIdBytes + 2 * b);
  const double one_entry =
      kInputsJsonCopies * b * turns_hi * (t.high + context + prefix + system) + kInputsJsonChunk;
  e.working = saturated_bytes(n > 0 ? std::max(generating, one_entry) : 0.0);
  e.structures = saturated_bytes(n * (kPerConversation + turns * kPerTurn));
  return e;
}

std::uint64_t dataset_memory_budget(std::uint64_t configured) {
  if (configured > 0) return configured;
  const std::uint64_t physical = core::physical_memory_bytes();
  return physical > 0 ? physical / 2 : 8ull << 30;
}

std::string budget_refusal(const DatasetEstimate& e, std::uint64_t configured,
                           std::string_view what, std::string_view flags) {
  const std::uint64_t budget = dataset_memory_budget(configured);
  if (e.total() <= budget) return {};
  const std::string limit =
      configured > 0 ? fmt::format("--max-dataset-memory is {}", core::format_byte_size(budget))
                     : fmt::format(
                           "the dataset memory budget is {} (half the physical memory; "
                           "--max-dataset-memory sets it)",
                           core::format_byte_size(budget));
  const std::string media =
      e.media > 0 ? fmt::format(", media {}", core::format_byte_size(e.media)) : "";
  return fmt::format(
      "{} would make a dataset of about {} in memory (prompt text {}, request bodies {}, "
      "working space {}{}), but {}: lower {} or raise --max-dataset-memory",
      what, core::format_byte_size(e.total()), core::format_byte_size(e.prompt_text),
      core::format_byte_size(e.payloads), core::format_byte_size(e.working), media, limit, flags);
}

namespace {
std::uint64_t json_bytes(const nlohmann::ordered_json& j) {
  std::uint64_t n = 16;  // the node itself
  if (j.is_string()) return n + j.get_ref<const std::string&>().size();
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) n += it.key().size() + json_bytes(it.value());
  } else if (j.is_array()) {
    for (const auto& v : j) n += json_bytes(v);
  }
  return n;
}
std::uint64_t json_bytes(const JsonPtr& p) {
  return p ? json_bytes(*p) : 0;
}

std::uint64_t turn_bytes(const Turn& t) {
  std::uint64_t n = t.text.size() + json_bytes(t.messages) + json_bytes(t.tools) +
                    json_bytes(t.payload) + json_bytes(t.extra);
  for (const auto& s : t.more_texts) n += s.size();
  for (const auto& s : t.passages) n += s.size();
  for (const auto& m : t.media) n += m.url.size() + m.audio_data.size();
  if (t.synthesized) n += t.synthesized->tail.size();
  for (const auto& s : t.segments) n += s.prompt.tail.size();
  return n;
}

// A conversation's bytes once its synthesized prompts are assembled (as inputs.json builds them).
double materialized_bytes(const Conversation& c, double b) {
  double n = static_cast<double>(c.user_context.size());
  for (const auto& t : c.turns)
    n += static_cast<double>(turn_bytes(t)) + b * t.known_input_tokens();
  return n;
}
}  // namespace

std::uint64_t dataset_text_bytes(const Dataset& ds) {
  std::uint64_t n = ds.system_message.size() + (ds.blocks ? ds.blocks->text_bytes() : 0);
  for (const auto& c : ds.conversations) {
    n += c.session_id.size() + c.user_context.size();
    for (const auto& t : c.turns) n += turn_bytes(t);
  }
  return n;
}

DatasetEstimate estimate_loaded(const Dataset& ds, double b) {
  DatasetEstimate e;
  e.prompt_text = dataset_text_bytes(ds);
  double bodies = 0, largest = 0, turns = 0;
  for (const auto& c : ds.conversations) {
    turns += static_cast<double>(c.turns.size());
    largest = std::max(largest, materialized_bytes(c, b));
    // Only a first turn that is not assembled per request keeps its body (write_inputs_json).
    if (c.turns.empty()) continue;
    const Turn& first = c.turns.front();
    if (!first.synthesized && first.segments.empty())
      bodies += static_cast<double>(turn_bytes(first) + ds.system_message.size()) + kBodyOverhead;
  }
  e.payloads = saturated_bytes(bodies);
  e.working = saturated_bytes(ds.conversations.empty()
                                  ? 0.0
                                  : kInputsJsonCopies * (largest + ds.system_message.size()) +
                                        kInputsJsonChunk);
  e.structures = saturated_bytes(static_cast<double>(ds.conversations.size()) * kPerConversation +
                                 turns * kPerTurn);
  return e;
}

}  // namespace inferperf::dataset
