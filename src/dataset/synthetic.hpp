// Synthetic prompts: conversations whose prompt lengths follow the configured ISL distribution.
#pragma once
#include <optional>
#include <string>

#include "core/rng.hpp"
#include "dataset/conversation.hpp"
#include "dataset/corpus.hpp"
#include "dataset/sequence_distribution.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::dataset {

// The rankings composer (--rankings-*): a query and a sampled number of passages per turn.
struct RankingsOptions {
  double passages_mean = 1.0, passages_stddev = 0.0;
  double passage_tokens_mean = 550.0, passage_tokens_stddev = 0.0;
  double query_tokens_mean = 550.0, query_tokens_stddev = 0.0;
};

struct SyntheticOptions {
  int num_conversations = 100;
  int isl_mean = 550;
  double isl_stddev = 0.0;
  std::optional<int> osl_mean;
  double osl_stddev = 0.0;
  int prompt_batch_size = 1;     // texts per turn
  int prefix_pool_size = 0;      // --num-prefix-prompts
  int prefix_length = 0;         // --prefix-prompt-length (tokens)
  int shared_system_length = 0;  // --shared-system-prompt-length (tokens, 0 = none)
  int user_context_length = 0;   // --user-context-prompt-length (tokens, 0 = none)
  std::optional<SequenceDistribution> sequence_distribution;  // --seq-dist
  double turn_mean = 1.0;                                     // --conversation-turn-mean
  double turn_stddev = 0.0;                                   // --conversation-turn-stddev
  double turn_delay_mean = 0.0;             // --conversation-turn-delay-mean (ms; 0 = no delays)
  double turn_delay_stddev = 0.0;           // --conversation-turn-delay-stddev (ms)
  double turn_delay_ratio = 1.0;            // --conversation-turn-delay-ratio (scales every delay)
  std::optional<RankingsOptions> rankings;  // set for rankings endpoints: query + passages per turn
  int threads = 0;                          // prompt generation threads (0 = one per core)
  std::string_view corpus_text = builtin_corpus_text();  // sampled when a tokenizer is given
};

// With a tokenizer, every prompt is a window of the tokenized corpus that re-tokenizes to exactly
// the sampled number of tokens (generate_corpus_prompt). Without one (server-side token counts)
// one prompt token is one short common word preceded by a space: exactly one token for the mock
// server's chunk counter and for common BPE vocabularies.
Dataset compose_synthetic(const SyntheticOptions& options, const core::RngFactory& rngs,
                          const tokenizer::Tokenizer* tok = nullptr);

std::string generate_prompt(int tokens, std::mt19937_64& rng);

// Tokens a prompt piece adds to a request. The request text is its pieces joined with single
// spaces (system, user context, prefix, turns), so a piece that is not the first one is counted
// after a fixed word and a space: that is also right for tokenizers that treat the start of a text
// specially (SentencePiece's prefix space).
class PieceCounter {
 public:
  PieceCounter(const tokenizer::Tokenizer& tok, bool follows_text);
  std::size_t operator()(std::string_view piece) const;

 private:
  const tokenizer::Tokenizer& tok_;
  bool follows_;
  std::size_t lead_tokens_ = 0;
};

std::string generate_exact_prompt(int tokens, std::mt19937_64& rng,
                                  const tokenizer::Tokenizer& tok);
// `base` (at most `tokens` tokens) followed by short words until `count` gives exactly `tokens`;
// generate_exact_prompt starts from nothing.
std::string extend_to_exact(std::string base, int tokens, std::mt19937_64& rng,
                            const PieceCounter& count);

}  // namespace inferperf::dataset
