// The distribution config of `inferperf synthesize --target agentic-code` (AIPerf 0.11's
// SessionDistributionConfig): its defaults, how a --config JSON object becomes one (every problem
// named by its key path), and the `generation_params` object the manifest records.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace inferperf::app::agentic {

// A lognormal given by its real-space mean and median (mu = ln median, sigma = sqrt(2 ln(mean /
// median))) or by mu and sigma themselves; draws outside [min, max] are drawn again.
struct Lognormal {
  double mean = 1;
  double median = 1;
  std::optional<double> min, max;
  double mu = 0;     // derived when not given
  double sigma = 0;  // derived when not given
};
Lognormal lognormal(double mean, double median);

// Inter-turn delay: a fast "agentic" (tool follow-up) component and a slow "human" one.
struct MixtureDelay {
  double agentic_fraction = 0.7;
  Lognormal agentic = lognormal(2'500, 1'800);
  Lognormal human = lognormal(40'000, 25'000);
  std::optional<double> max;  // ms
};

// P(reset) = base_probability * (1 + (context_scaling - 1) * input_length / max_prompt_tokens).
struct ResetRule {
  double base_probability = 0.02;
  double context_scaling = 2.0;
};

// Explicit turns per session (instead of the reset rule).
struct TurnCount {
  long long mean = 1, median = 1, min = 1, max = 1;
  bool allow_truncation = false;
  std::optional<long long> max_session_attempts;  // 100 unless allow_truncation
};

struct CacheLayers {
  long long layer1_tokens = 32'000;    // L1: tools + system prompt, shared by every session
  long long layer1_5_tokens = 20'000;  // L1.5: shared within a group (repo context)
  Lognormal layer2 = lognormal(10'000, 5'000);  // L2: the session's own first context
  long long num_groups = 50;                    // L1.5 groups, drawn Zipf-weighted
  double zipf_alpha = 1.2;
};

struct Config {
  Lognormal new_tokens = lognormal(3'500, 1'800);  // tokens added per turn
  double new_tokens_bias = 1.0;                    // multiplies mean and median (shifts mu)
  Lognormal generation = lognormal(500, 300);      // output tokens
  MixtureDelay delay;
  std::optional<ResetRule> reset = ResetRule{};
  std::optional<TurnCount> turns;
  long long max_prompt_tokens = 200'000;
  long long block_size = 512;
  CacheLayers cache;
  double restart_initial_probability = 0.0;
  long long restart_turn_min = 5, restart_turn_max = 15;  // [min, max)
};

// A config from a JSON object (a config file's, or a manifest's `generation_params`): absent keys
// keep their defaults; snake_case and the schema's camelCase top-level names are both accepted.
// Keys the generator does not interpret are accepted, as AIPerf does, and listed in `ignored`
// (key paths). An error's `field` is the key path ("cache.layer2.mean").
core::Result<Config> config_from_json(const nlohmann::json& j, std::vector<std::string>* ignored);

// --max-isl / --max-osl, applied as AIPerf does (max_prompt_tokens; generation_length.max), then
// checked again.
core::Result<Config> apply_caps(Config c, std::optional<long long> max_isl,
                                std::optional<long long> max_osl);

// The config with every derived value filled in, in the manifest's key order.
nlohmann::ordered_json config_to_json(const Config& c);

}  // namespace inferperf::app::agentic
