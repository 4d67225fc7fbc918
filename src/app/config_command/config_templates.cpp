#include "app/config_command/config_templates.hpp"

namespace inferperf::app {

namespace {

constexpr std::string_view kTemplateMinimal = R"(# inferperf profile -f minimal.yaml
schemaVersion: "2.0"
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
  phases:
    type: concurrency
    concurrency: 1
    requests: 100
)";

constexpr std::string_view kTemplateStreamingChat =
    R"(# Streaming chat: time to first token and inter-token latency need streaming: true.
schemaVersion: "2.0"
random_seed: 42
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: ${INFERPERF_URL:http://localhost:8000}
    type: chat
    streaming: true
  dataset:
    type: synthetic
    entries: 200
    prompts:
      isl: {mean: 512, stddev: 0}
      osl: {mean: 128, stddev: 0}
  phases:
    type: concurrency
    concurrency: 8
    requests: 400
)";

constexpr std::string_view kTemplateGoodputSlo =
    R"(# slos: metric tag -> threshold in the metric's display unit (ms for latencies).
schemaVersion: "2.0"
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: synthetic
    prompts: {isl: 1024, osl: 256}
  phases:
    type: concurrency
    concurrency: 16
    requests: 500
  slos:
    time_to_first_token: 300
    inter_token_latency: 25
)";

constexpr std::string_view kTemplateConcurrencySweep =
    R"(# Each value runs as its own benchmark (artifacts/.../concurrency_N/).
schemaVersion: "2.0"
random_seed: 42
sweep:
  type: grid
  parameters:
    concurrency: [1, 2, 4, 8, 16, 32]
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: synthetic
    prompts: {isl: 512, osl: 128}
  phases:
    - name: warmup
      type: concurrency
      concurrency: 1
      requests: 10
    - name: profiling
      type: concurrency
      requests: 200
)";

constexpr std::string_view kTemplateRequestRatePoisson =
    R"(# A rate phase: requests arrive on their own clock; concurrency only caps them.
schemaVersion: "2.0"
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: synthetic
    prompts: {isl: 256, osl: 64}
  phases:
    type: poisson
    rate: 10
    concurrency: 256
    duration: 2m
    grace_period: 30s
)";

constexpr std::string_view kTemplateMooncakeTraceReplay =
    R"(# Set TRACE_FILE, or edit the path. Each row's timestamp (ms) is its send time.
schemaVersion: "2.0"
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: file
    path: ${TRACE_FILE:traces/mooncake_trace.jsonl}
    format: mooncake_trace
  phases:
    type: fixed_schedule
    auto_offset: true
)";

constexpr std::string_view kTemplateMultiTurnSessions =
    R"(# Later turns carry the conversation so far; turn_delay is in milliseconds.
schemaVersion: "2.0"
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: synthetic
    entries: 50
    prompts: {isl: 256, osl: 64}
    turns: {mean: 4, stddev: 0}
    turn_delay: {mean: 500, stddev: 100}
  phases:
    type: concurrency
    concurrency: 8
    sessions: 50
)";

constexpr std::string_view kTemplateWarmupThenProfile =
    R"(# The warmup fills caches and connection pools; its requests are not in the results.
schemaVersion: "2.0"
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: synthetic
    prompts: {isl: 512, osl: 128}
  warmup:
    type: concurrency
    concurrency: 4
    requests: 40
  profiling:
    type: concurrency
    concurrency: 16
    requests: 500
)";

constexpr std::string_view kTemplateRepeatedRuns =
    R"(# aggregate/ gets the mean, spread and confidence interval of every metric.
schemaVersion: "2.0"
random_seed: 42
multi_run:
  num_runs: 3
  cooldown_seconds: 10
  confidence_level: 0.95
  set_consistent_seed: true
  disable_warmup_after_first: true
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: synthetic
    prompts: {isl: 512, osl: 128}
  phases:
    - {name: warmup, type: concurrency, concurrency: 4, requests: 20}
    - {name: profiling, type: concurrency, concurrency: 16, requests: 300}
)";

constexpr std::string_view kTemplateIslOslZipSweep =
    R"(# zip: the n-th values of every list run together (3 runs, not 9).
schemaVersion: "2.0"
random_seed: 42
sweep:
  type: zip
  parameters:
    datasets.main.prompts.isl.mean: [128, 1024, 4096]
    datasets.main.prompts.osl.mean: [512, 256, 64]
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  datasets:
    - name: main
      type: synthetic
      prompts: {isl: 128, osl: 512}
  phases:
    type: concurrency
    concurrency: 8
    requests: 200
)";

constexpr std::string_view kTemplateVariablesAndEnv =
    R"(# MODEL and URL come from the environment when set; {{ }} computes from variables.
schemaVersion: "2.0"
variables:
  users: 8
  requests_per_user: 25
benchmark:
  model: ${MODEL:Qwen/Qwen3-0.6B}
  endpoint:
    url: ${URL:http://localhost:8000}
    type: chat
  phases:
    type: concurrency
    concurrency: "{{ users }}"
    requests: "{{ users * requests_per_user }}"
)";

constexpr std::string_view kTemplateUserCentricKvCache =
    R"(# Each user sends its next turn users/rate seconds after its previous one.
schemaVersion: "2.0"
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  dataset:
    type: synthetic
    prompts: {isl: 1024, osl: 128}
    turns: {mean: 5, stddev: 0}
  phases:
    type: user_centric
    rate: 4
    users: 16
    sessions: 64
)";

constexpr std::string_view kTemplateSweepDistributions =
    R"(# Length spread alone: the same mean prompt and answer lengths, drawn from normal
# distributions of growing standard deviation (zip: 0/0, 128/32, 512/128). inferperf draws
# normal lengths; {mean, stddev} is the form it reads.
schemaVersion: "2.0"
random_seed: 42
sweep:
  type: zip
  parameters:
    datasets.main.prompts.isl.stddev: [0, 128, 512]
    datasets.main.prompts.osl.stddev: [0, 32, 128]
benchmark:
  model: Qwen/Qwen3-0.6B
  endpoint:
    url: http://localhost:8000
    type: chat
    streaming: true
  datasets:
    - name: main
      type: synthetic
      entries: 500
      prompts:
        isl: {mean: 1024, stddev: 0}
        osl: {mean: 256, stddev: 0}
  phases:
    type: concurrency
    concurrency: 16
    requests: 500
)";

constexpr ConfigTemplate kConfigTemplates[] = {
    {"minimal", "basics",
     "The smallest useful file: one model, one URL, 100 requests at concurrency 1",
     kTemplateMinimal},
    {"streaming_chat", "basics",
     "Streaming chat at concurrency 8 with fixed prompt lengths: TTFT and inter-token latency",
     kTemplateStreamingChat},
    {"goodput_slo", "analysis",
     "Goodput: the share of requests meeting TTFT and inter-token latency objectives (ms)",
     kTemplateGoodputSlo},
    {"concurrency_sweep", "load",
     "A grid sweep over concurrency 1..32: one run per value, with a sweep summary",
     kTemplateConcurrencySweep},
    {"request_rate_poisson", "load",
     "Open loop: Poisson arrivals at 10 requests per second for two minutes",
     kTemplateRequestRatePoisson},
    {"mooncake_trace_replay", "datasets",
     "Replay a Mooncake trace (JSONL with timestamps) on its own schedule",
     kTemplateMooncakeTraceReplay},
    {"multi_turn_sessions", "datasets",
     "Multi-turn conversations: 4 turns per session with a think time between turns",
     kTemplateMultiTurnSessions},
    {"warmup_then_profile", "basics",
     "A warmup phase (excluded from the results) before the measured phase",
     kTemplateWarmupThenProfile},
    {"repeated_runs", "analysis",
     "The same benchmark three times with confidence intervals across the runs",
     kTemplateRepeatedRuns},
    {"isl_osl_zip_sweep", "load",
     "Prompt shapes side by side: a zip sweep pairs each input length with an output length",
     kTemplateIslOslZipSweep},
    {"sweep_distributions", "load",
     "Length spread alone: the same mean lengths, growing standard deviation, run side by side",
     kTemplateSweepDistributions},
    {"variables_and_env", "basics",
     "Variables and environment: ${VAR:default} and {{ expressions }} fill in values",
     kTemplateVariablesAndEnv},
    {"user_centric_kv_cache", "load",
     "User-centric rate: simulated users returning with their next turn (KV-cache reuse)",
     kTemplateUserCentricKvCache},
};

}  // namespace

std::span<const ConfigTemplate> config_templates() {
  return kConfigTemplates;
}

}  // namespace inferperf::app
