#include "app/profile/input_config.hpp"

#include "core/secrets.hpp"

namespace inferperf::app {

using nlohmann::ordered_json;

namespace {

// Most entries are echoed only when the user gave the flag, not when the default applies.
bool echo_flag_given(const config::RunConfig& c, const char* name) {
  return c.set_options.count(name) > 0;
}

std::vector<std::string> echo_redacted_urls(const std::vector<std::string>& urls) {
  std::vector<std::string> out;
  for (const auto& u : urls) out.push_back(core::redact_urls(u));
  return out;
}

ordered_json echo_endpoint(const config::RunConfig& c) {
  const auto set = [&](const char* name) { return echo_flag_given(c, name); };
  ordered_json endpoint;
  endpoint["model_names"] = c.endpoint.model_names;
  if (set("--connection-reuse-strategy"))
    endpoint["connection_reuse_strategy"] = config::to_string(c.endpoint.connection_reuse);
  if (set("--model-selection-strategy"))
    endpoint["model_selection_strategy"] = config::to_string(c.endpoint.model_selection);
  if (set("--endpoint-type")) endpoint["type"] = config::to_string(c.endpoint.type);
  if (set("--streaming")) endpoint["streaming"] = c.endpoint.streaming;
  if (set("--url")) endpoint["urls"] = echo_redacted_urls(c.endpoint.urls);
  if (set("--url-strategy"))
    endpoint["url_selection_strategy"] = config::to_string(c.endpoint.url_strategy);
  if (set("--custom-endpoint")) endpoint["custom_endpoint"] = c.endpoint.custom_endpoint;
  if (set("--request-timeout-seconds")) endpoint["timeout_seconds"] = c.endpoint.request_timeout_s;
  if (set("--api-key")) endpoint["api_key"] = std::string(core::kRedacted);
  if (set("--use-legacy-max-tokens")) endpoint["use_legacy_max_tokens"] = true;
  if (set("--use-server-token-count")) endpoint["use_server_token_count"] = true;
  return endpoint;
}

// --extra-inputs and --header, with credentials redacted.
void echo_request_additions(const config::RunConfig& c, ordered_json& input) {
  if (!c.input.extra.empty()) {
    auto extra = ordered_json::array();
    for (const auto& [k, v] : c.input.extra)
      extra.push_back(
          {k, core::is_secret_name(k) ? nlohmann::json(std::string(core::kRedacted)) : v});
    input["extra"] = extra;
  }
  if (!c.input.headers.empty()) {
    auto h = ordered_json::array();
    for (const auto& [k, v] : c.input.headers) h.push_back({k, core::redact_value(k, v)});
    input["headers"] = h;
  }
}

ordered_json echo_prompt(const config::RunConfig& c) {
  ordered_json prompt = ordered_json::object();
  if (echo_flag_given(c, "--synthetic-input-tokens-mean") ||
      echo_flag_given(c, "--synthetic-input-tokens-stddev")) {
    prompt["input_tokens"] = {{"mean", c.input.isl_mean}, {"stddev", c.input.isl_stddev}};
  }
  if (c.input.block_size) prompt["input_tokens"]["block_size"] = *c.input.block_size;
  if (c.input.osl_mean) {
    prompt["output_tokens"] = {{"mean", *c.input.osl_mean}, {"stddev", c.input.osl_stddev}};
  }
  if (echo_flag_given(c, "--prompt-batch-size")) prompt["batch_size"] = c.input.prompt_batch_size;
  if (c.input.prefix_pool_size > 0) {
    prompt["prefix_prompt"] = {{"pool_size", c.input.prefix_pool_size},
                               {"length", c.input.prefix_length}};
  }
  if (c.input.shared_system_prompt_length) {
    prompt["shared_system_prompt_length"] = *c.input.shared_system_prompt_length;
  }
  if (c.input.user_context_prompt_length)
    prompt["user_context_prompt_length"] = *c.input.user_context_prompt_length;
  if (!c.input.sequence_distribution.empty())
    prompt["sequence_distribution"] = c.input.sequence_distribution;
  return prompt;
}

// As AIPerf: a tag -> threshold map in display units, in the order given.
ordered_json echo_goodput(const std::vector<core::GoodputTarget>& targets) {
  ordered_json goodput = ordered_json::object();
  for (const auto& t : targets) goodput[t.tag] = t.value;
  return goodput;
}

ordered_json echo_conversation(const config::RunConfig& c) {
  const auto set = [&](const char* name) { return echo_flag_given(c, name); };
  ordered_json conversation = ordered_json::object();
  if (set("--conversation-turn-mean")) conversation["turn_mean"] = c.input.turn_mean;
  if (set("--conversation-turn-stddev")) conversation["turn_stddev"] = c.input.turn_stddev;
  if (set("--conversation-turn-delay-mean"))
    conversation["turn_delay_mean"] = c.input.turn_delay_mean_ms;
  if (set("--conversation-turn-delay-stddev"))
    conversation["turn_delay_stddev"] = c.input.turn_delay_stddev_ms;
  if (set("--conversation-turn-delay-ratio"))
    conversation["turn_delay_ratio"] = c.input.turn_delay_ratio;
  return conversation;
}

// The dataset file and how its rows are reshaped and scheduled.
void echo_dataset_source(const config::RunConfig& c, ordered_json& input) {
  if (!c.input.input_file.empty()) input["file"] = c.input.input_file;
  if (!c.input.public_dataset.empty()) input["public_dataset"] = c.input.public_dataset;
  if (!c.input.custom_dataset_type.empty())
    input["custom_dataset_type"] = c.input.custom_dataset_type;
  if (c.input.no_force_min_tokens) input["no_force_min_tokens"] = true;
  if (c.input.omit_kv_hints) input["omit_kv_hints"] = true;
  if (c.input.synthesis_speedup_ratio != 1.0)
    input["synthesis"]["speedup_ratio"] = c.input.synthesis_speedup_ratio;
  if (c.input.synthesis_prompt_len_multiplier != 1.0)
    input["synthesis"]["prompt_len_multiplier"] = c.input.synthesis_prompt_len_multiplier;
  if (c.input.synthesis_max_isl) input["synthesis"]["max_isl"] = *c.input.synthesis_max_isl;
  if (c.input.synthesis_max_osl) input["synthesis"]["max_osl"] = *c.input.synthesis_max_osl;
  if (c.load.fixed_schedule) input["fixed_schedule"] = true;
  if (c.load.fixed_schedule_auto_offset) input["fixed_schedule_auto_offset"] = true;
  if (c.load.fixed_schedule_start_offset_ms)
    input["fixed_schedule_start_offset"] = *c.load.fixed_schedule_start_offset_ms;
  if (c.load.fixed_schedule_end_offset_ms)
    input["fixed_schedule_end_offset"] = *c.load.fixed_schedule_end_offset_ms;
  if (echo_flag_given(c, "--dataset-sampling-strategy"))
    input["dataset_sampling_strategy"] = config::to_string(*c.input.sampling_strategy);
}

ordered_json echo_input(const config::RunConfig& c) {
  ordered_json input = ordered_json::object();
  echo_request_additions(c, input);
  if (auto prompt = echo_prompt(c); !prompt.empty()) input["prompt"] = prompt;
  if (c.input.random_seed) input["random_seed"] = *c.input.random_seed;
  if (!c.metrics.goodput.empty()) input["goodput"] = echo_goodput(c.metrics.goodput_targets);
  if (echo_flag_given(c, "--num-dataset-entries"))
    input["num_dataset_entries"] = c.input.num_dataset_entries;
  if (auto conversation = echo_conversation(c); !conversation.empty())
    input["conversation"] = conversation;
  echo_dataset_source(c, input);
  return input;
}

ordered_json echo_loadgen(const config::RunConfig& c) {
  ordered_json loadgen = ordered_json::object();
  const auto& l = c.load;
  if (l.concurrency) loadgen["concurrency"] = *l.concurrency;
  if (l.prefill_concurrency) loadgen["prefill_concurrency"] = *l.prefill_concurrency;
  if (l.request_rate) loadgen["request_rate"] = *l.request_rate;
  if (echo_flag_given(c, "--arrival-pattern") || l.request_rate)
    loadgen["arrival_pattern"] = l.arrival_pattern ? config::to_string(*l.arrival_pattern) : "";
  if (l.smoothness) loadgen["arrival_smoothness"] = *l.smoothness;
  if (l.user_centric_rate) loadgen["user_centric_rate"] = *l.user_centric_rate;
  if (l.num_users) loadgen["num_users"] = *l.num_users;
  if (l.request_count) loadgen["request_count"] = *l.request_count;
  if (l.num_sessions) loadgen["num_sessions"] = *l.num_sessions;
  if (l.duration_s) loadgen["benchmark_duration"] = *l.duration_s;
  if (l.grace_period_s) loadgen["benchmark_grace_period"] = *l.grace_period_s;
  if (l.concurrency_ramp_s) loadgen["concurrency_ramp_duration"] = *l.concurrency_ramp_s;
  if (l.prefill_ramp_s) loadgen["prefill_concurrency_ramp_duration"] = *l.prefill_ramp_s;
  if (l.rate_ramp_s) loadgen["request_rate_ramp_duration"] = *l.rate_ramp_s;
  if (l.cancellation_rate_pct) loadgen["request_cancellation_rate"] = *l.cancellation_rate_pct;
  if (l.cancellation_delay_s) loadgen["request_cancellation_delay"] = *l.cancellation_delay_s;
  if (l.warmup.request_count) loadgen["warmup_request_count"] = *l.warmup.request_count;
  if (l.warmup.duration_s) loadgen["warmup_duration"] = *l.warmup.duration_s;
  if (l.warmup.num_sessions) loadgen["num_warmup_sessions"] = *l.warmup.num_sessions;
  if (c.load.workers_max) loadgen["workers_max"] = *c.load.workers_max;
  return loadgen;
}

ordered_json echo_tokenizer(const config::RunConfig& c) {
  ordered_json tokenizer = ordered_json::object();
  if (echo_flag_given(c, "--tokenizer")) tokenizer["name"] = c.tokenizer.name;
  if (echo_flag_given(c, "--tokenizer-revision")) tokenizer["revision"] = c.tokenizer.revision;
  if (echo_flag_given(c, "--tokenizer-trust-remote-code")) tokenizer["trust_remote_code"] = true;
  return tokenizer;
}

ordered_json echo_output(const config::RunConfig& c, const std::string& artifact_dir) {
  ordered_json output = {{"artifact_directory", artifact_dir}};
  if (echo_flag_given(c, "--export-level"))
    output["export_level"] = config::to_string(c.output.export_level);
  if (echo_flag_given(c, "--profile-export-prefix"))
    output["profile_export_prefix"] = c.output.export_prefix;
  if (c.output.slice_duration_s) output["slice_duration"] = *c.output.slice_duration_s;
  return output;
}

// GPU and server-metrics telemetry are top-level entries of the echo, not a section.
void echo_telemetry(const config::RunConfig& c, ordered_json& j) {
  const auto& t = c.telemetry;
  if (t.gpu_flag_given) {
    auto items = ordered_json::array();
    if (t.nvml) items.push_back("pynvml");
    if (t.dashboard) items.push_back("dashboard");
    for (const auto& u : t.dcgm_urls) items.push_back(core::redact_urls(u));
    if (!t.custom_metrics_csv.empty()) items.push_back(t.custom_metrics_csv);
    j["gpu_telemetry"] = items;
  }
  if (t.no_gpu) j["no_gpu_telemetry"] = true;
  if (echo_flag_given(c, "--server-metrics"))
    j["server_metrics"] = echo_redacted_urls(t.server_urls);
  if (t.no_server_metrics) j["no_server_metrics"] = true;
  if (echo_flag_given(c, "--server-metrics-formats"))
    j["server_metrics_formats"] = t.server_formats;
}

}  // namespace

nlohmann::ordered_json build_input_config(const config::RunConfig& c,
                                          const std::string& artifact_dir,
                                          const std::string& benchmark_id) {
  nlohmann::ordered_json j;
  j["endpoint"] = echo_endpoint(c);
  if (auto input = echo_input(c); !input.empty()) j["input"] = input;
  j["output"] = echo_output(c, artifact_dir);
  if (auto tokenizer = echo_tokenizer(c); !tokenizer.empty()) j["tokenizer"] = tokenizer;
  j["loadgen"] = echo_loadgen(c);
  echo_telemetry(c, j);
  j["cli_command"] = c.cli_command;
  j["benchmark_id"] = benchmark_id;
  return j;
}

std::vector<std::string> secret_extra_keys(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : extra) {
    if (core::is_secret_name(k)) keys.push_back(k);
  }
  return keys;
}

}  // namespace inferperf::app
