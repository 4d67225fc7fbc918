#include "dataset/prompt_blocks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>

#include "core/rng.hpp"
#include "dataset/corpus.hpp"
#include "dataset/parallel_jobs.hpp"
#include "dataset/synthetic.hpp"

namespace inferperf::dataset {

namespace {
// splitmix64: spreads a (seed, id) pair into an independent generator seed without hashing text.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Declared prompt lengths are honoured as given (AIPerf accepts any), so a few bytes of trace can
// ask for gigabytes of text. The fuzz build (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, libFuzzer's
// convention) generates at most this many tokens per text, so the fuzzer spends its time in the
// parsers rather than timing out in the generator; every size computation still runs.
int generated_tokens(int tokens) {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  return std::min(tokens, 256);
#else
  return tokens;
#endif
}
}  // namespace

struct PromptBlockBuilder::Corpus {
  Corpus(const tokenizer::Tokenizer& tok)
      : tokens(builtin_corpus_text(), tok), first(tok, false), follows(tok, true) {}
  TokenCorpus tokens;
  PieceCounter first, follows;
};

std::string PromptBlocks::assemble(const SynthesizedPrompt& p) const {
  std::size_t bytes = p.tail.size() + p.hash_ids.size();
  for (auto id : p.hash_ids) {
    if (const Block* b = find(id)) bytes += b->text.size();
  }
  std::string out;
  out.reserve(bytes);
  for (auto id : p.hash_ids) {
    const Block* b = find(id);
    if (!b) continue;
    if (!out.empty()) out.push_back(' ');
    out.append(b->text);
  }
  if (!p.tail.empty()) {
    if (!out.empty()) out.push_back(' ');
    out.append(p.tail);
  }
  return out;
}

std::size_t PromptBlocks::text_bytes() const {
  std::size_t n = 0;
  for (const auto& [id, b] : blocks_) n += b.text.size();
  return n;
}

const PromptBlocks::Block* PromptBlocks::find(std::int64_t id) const {
  const auto it = blocks_.find(id);
  return it == blocks_.end() ? nullptr : &it->second;
}

PromptBlockBuilder::PromptBlockBuilder(int block_size, const tokenizer::Tokenizer* tok,
                                       std::uint64_t seed)
    : block_size_(block_size), tok_(tok), seed_(seed) {
  if (tok_) corpus_ = std::make_unique<Corpus>(*tok_);
}

PromptBlockBuilder::~PromptBlockBuilder() = default;

int PromptBlockBuilder::covered_tokens(const std::vector<std::int64_t>& ids,
                                       int input_length) const {
  const long long m = static_cast<long long>(ids.size());
  return static_cast<int>(std::min<long long>(m * block_size_, input_length));
}

std::optional<std::string> PromptBlockBuilder::check_layout(const std::vector<std::int64_t>& ids,
                                                            int input_length) const {
  const auto m = static_cast<long long>(ids.size());
  const long long b = block_size_;
  if (m == 0 || m * b <= input_length) return std::nullopt;
  // The usual synthetic layout: the final block holds what is left and must be 1..B tokens.
  const long long last = input_length - (m - 1) * b;
  if (last > 0 && last <= b) return std::nullopt;
  return fmt::format(
      "input_length {} with {} hash_ids and block size {} leaves {} tokens for the last block "
      "(needs 1..{}); the hash ids do not fit this input length at this block size",
      input_length, m, b, last, b);
}

std::optional<std::string> PromptBlockBuilder::require(const std::vector<std::int64_t>& ids,
                                                       int input_length) {
  if (auto e = check_layout(ids, input_length)) return e;
  const auto m = static_cast<long long>(ids.size());
  const long long b = block_size_;
  const long long last = m * b > input_length ? input_length - (m - 1) * b : b;
  for (long long k = 0; k < m; ++k) {
    const int need = static_cast<int>(k + 1 == m ? last : b);
    auto [it, fresh] = sizes_.emplace(ids[static_cast<std::size_t>(k)], need);
    if (fresh) {
      required_tokens_ += need;
      order_.push_back(it->first);
      starts_[it->first] = k == 0;
    } else if (it->second != need) {
      return fmt::format(
          "input_length {} with {} hash_ids and block size {}: hash id {} was a block of {} "
          "tokens on an earlier row and is {} tokens here",
          input_length, m, b, it->first, it->second, need);
    }
  }
  return std::nullopt;
}

std::string PromptBlockBuilder::fresh_text(int tokens, std::uint64_t key, bool follows) const {
  // Its own seed domain: fresh text never repeats a hash id's block.
  std::mt19937_64 rng(mix(mix(seed_ + 0x6a09e667f3bcc908ULL) ^ mix(key ^ 0xbb67ae8584caa73bULL)));
  tokens = generated_tokens(tokens);
  if (!corpus_) return generate_prompt(tokens, rng);
  return generate_corpus_prompt(tokens, rng, corpus_->tokens,
                                follows ? corpus_->follows : corpus_->first);
}

std::shared_ptr<const PromptBlocks> PromptBlockBuilder::build(
    const std::vector<SynthesizedPrompt*>& fresh, int threads) {
  auto out = std::make_shared<PromptBlocks>();
  std::vector<PromptBlocks::Block*> slots;
  slots.reserve(order_.size());
  out->blocks_.reserve(order_.size());
  for (auto id : order_) {
    auto& b = out->blocks_[id];
    b.tokens = sizes_.at(id);
    slots.push_back(&b);
  }
  // One job list: blocks first, then the rows' fresh texts.
  const std::size_t jobs = slots.size() + fresh.size();
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < jobs;) {
      if (i >= slots.size()) {
        SynthesizedPrompt& p = *fresh[i - slots.size()];
        p.tail = fresh_text(p.fresh_tokens, p.fresh_key, !p.hash_ids.empty());
        p.fresh_tokens = 0;
        continue;
      }
      std::mt19937_64 rng(mix(seed_ ^ mix(static_cast<std::uint64_t>(order_[i]))));
      // A block that starts a prompt is counted as the start of a text; the others after a word
      // and a space.
      const bool first = starts_.at(order_[i]);
      const int tokens = generated_tokens(slots[i]->tokens);
      slots[i]->text = corpus_ ? generate_corpus_prompt(tokens, rng, corpus_->tokens,
                                                        first ? corpus_->first : corpus_->follows)
                               : generate_prompt(tokens, rng);
    }
  };
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads =
      static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), jobs / 16 + 1));
  run_on_threads(threads, work);
  sizes_.clear();
  order_.clear();
  starts_.clear();
  return out;
}

Turn materialize(const Dataset& ds, const Turn& t) {
  Turn out = t;
  if (t.synthesized && ds.blocks) {
    out.text = ds.blocks->assemble(*t.synthesized);
    out.synthesized.reset();  // the text is all a request (or a session's history) needs
  }
  if (!t.segments.empty() && ds.blocks) {
    auto messages = nlohmann::ordered_json::array();
    for (const auto& seg : t.segments)
      messages.push_back({{"role", seg.role}, {"content", ds.blocks->assemble(seg.prompt)}});
    out.messages = std::make_shared<const nlohmann::ordered_json>(std::move(messages));
    out.segments.clear();
  }
  return out;
}

}  // namespace inferperf::dataset
