#include "app/profile/input_config.hpp"

#include "core/secrets.hpp"

namespace inferperf::app {

using nlohmann::ordered_json;

// The echo follows AIPerf 0.11's resolved BenchmarkConfig body (docs/exports.md, input_config):
// models, endpoint, datasets, phases, artifacts, then the optional sections. A value is written
// when the user gave it or resolution computed it; model defaults nobody asked for are left out,
// so readers compare by key path. inferperf's own settings sit under a last `inferperf` key.
namespace {

bool given(const config::RunConfig& c, const char* name) {
  return c.set_options.count(name) > 0;
}

ordered_json redacted_urls(const std::vector<std::string>& urls) {
  auto out = ordered_json::array();
  for (const auto& u : urls) out.push_back(core::redact_urls(u));
  return out;
}

ordered_json echo_models(const config::RunConfig& c) {
  ordered_json models;
  if (given(c, "--model-selection-strategy"))
    models["strategy"] = config::to_string(c.endpoint.model_selection);
  auto items = ordered_json::array();
  for (const auto& name : c.endpoint.model_names) items.push_back({{"name", name}});
  models["items"] = std::move(items);
  return models;
}

// --header and --extra-inputs as maps, credentials redacted.
void echo_request_additions(const config::RunConfig& c, ordered_json& endpoint) {
  if (!c.input.headers.empty()) {
    ordered_json h = ordered_json::object();
    for (const auto& [k, v] : c.input.headers) h[k] = core::redact_value(k, v);
    endpoint["headers"] = std::move(h);
  }
  if (!c.input.extra.empty()) {
    ordered_json extra = ordered_json::object();
    for (const auto& [k, v] : c.input.extra)
      extra[k] =
          core::is_secret_name(k) ? ordered_json(std::string(core::kRedacted)) : ordered_json(v);
    endpoint["extra"] = std::move(extra);
  }
}

ordered_json echo_endpoint(const config::RunConfig& c) {
  const auto& e = c.endpoint;
  ordered_json endpoint;
  endpoint["urls"] = redacted_urls(e.urls);
  if (given(c, "--url-strategy")) endpoint["url_strategy"] = config::to_string(e.url_strategy);
  if (given(c, "--endpoint-type")) endpoint["type"] = config::to_string(e.type);
  if (given(c, "--custom-endpoint")) endpoint["path"] = e.custom_endpoint;
  if (!e.api_key.empty()) endpoint["api_key"] = std::string(core::kRedacted);
  if (given(c, "--request-timeout-seconds")) endpoint["timeout"] = e.request_timeout_s;
  if (e.streaming) endpoint["streaming"] = true;
  if (given(c, "--transport")) endpoint["transport"] = e.transport;
  if (given(c, "--connection-reuse-strategy"))
    endpoint["connection_reuse"] = config::to_string(e.connection_reuse);
  if (e.use_legacy_max_tokens) endpoint["use_legacy_max_tokens"] = true;
  if (e.use_server_token_count) endpoint["use_server_token_count"] = true;
  echo_request_additions(c, endpoint);
  if (given(c, "--session-header")) endpoint["session_header"] = e.session_header;
  if (e.request_content_type || config::requires_form_data(e.type))  // AIPerf resolves it so
    endpoint["request_content_type"] =
        config::to_string(config::effective_content_type(e.type, e.request_content_type));
  if (e.download_video_content) endpoint["download_video_content"] = true;
  if (given(c, "--wait-for-model-timeout"))
    endpoint["wait_for_model_timeout"] = e.wait_for_model_timeout_s;
  if (given(c, "--wait-for-model-interval"))
    endpoint["wait_for_model_interval"] = c.readiness.interval_s;
  if (given(c, "--wait-for-model-mode"))
    endpoint["wait_for_model_mode"] = config::to_string(c.readiness.mode);
  return endpoint;
}

// A distribution as the YAML writes it: {mean} or {mean, stddev}.
ordered_json distribution(double mean, double stddev) {
  ordered_json d = {{"mean", mean}};
  if (stddev != 0) d["stddev"] = stddev;
  return d;
}

ordered_json echo_prompts(const config::RunConfig& c) {
  const auto& in = c.input;
  ordered_json prompts;
  prompts["isl"] = distribution(in.isl_mean, in.isl_stddev);
  if (in.osl_mean) prompts["osl"] = distribution(*in.osl_mean, in.osl_stddev);
  if (in.block_size) prompts["block_size"] = *in.block_size;
  if (given(c, "--prompt-batch-size")) prompts["batch_size"] = in.prompt_batch_size;
  if (!in.sequence_distribution.empty())
    prompts["sequence_distribution"] = in.sequence_distribution;
  return prompts;
}

ordered_json echo_prefix_prompts(const config::RunConfig& c) {
  const auto& in = c.input;
  ordered_json prefix = ordered_json::object();
  if (in.prefix_pool_size > 0) {
    prefix["pool_size"] = in.prefix_pool_size;
    prefix["length"] = in.prefix_length;
  }
  if (in.shared_system_prompt_length)
    prefix["shared_system_length"] = *in.shared_system_prompt_length;
  if (in.user_context_prompt_length) prefix["user_context_length"] = *in.user_context_prompt_length;
  return prefix;
}

// Multi-turn shape of synthetic conversations.
void echo_turns(const config::RunConfig& c, ordered_json& d) {
  const auto& in = c.input;
  if (given(c, "--conversation-turn-mean") || given(c, "--conversation-turn-stddev"))
    d["turns"] = distribution(in.turn_mean, in.turn_stddev);
  if (given(c, "--conversation-turn-delay-mean") || given(c, "--conversation-turn-delay-stddev"))
    d["turn_delay"] = distribution(in.turn_delay_mean_ms, in.turn_delay_stddev_ms);
  if (given(c, "--conversation-turn-delay-ratio")) d["turn_delay_ratio"] = in.turn_delay_ratio;
}

ordered_json echo_synthesis(const config::InputConfig& in) {
  ordered_json s = ordered_json::object();
  if (in.synthesis_speedup_ratio != 1.0) s["speedup_ratio"] = in.synthesis_speedup_ratio;
  if (in.synthesis_prompt_len_multiplier != 1.0)
    s["prompt_len_multiplier"] = in.synthesis_prompt_len_multiplier;
  if (in.synthesis_prefix_len_multiplier != 1.0)
    s["prefix_len_multiplier"] = in.synthesis_prefix_len_multiplier;
  if (in.synthesis_prefix_root_multiplier != 1)
    s["prefix_root_multiplier"] = in.synthesis_prefix_root_multiplier;
  if (in.synthesis_output_len_multiplier != 1.0)
    s["output_len_multiplier"] = in.synthesis_output_len_multiplier;
  if (in.synthesis_max_isl) s["max_isl"] = *in.synthesis_max_isl;
  if (in.synthesis_max_osl) s["max_osl"] = *in.synthesis_max_osl;
  return s;
}

// The one dataset entry: synthetic, a file (--input-file) or a public dataset.
ordered_json echo_dataset(const config::RunConfig& c) {
  const auto& in = c.input;
  ordered_json d;
  d["name"] = "main";
  if (!in.public_dataset.empty()) {
    d["type"] = "public";
    d["dataset"] = in.public_dataset;
    if (!in.input_file.empty()) d["path"] = in.input_file;
    if (in.hf_subset) d["hf_subset"] = *in.hf_subset;
    if (!in.dataset_filters.empty()) {
      ordered_json f = ordered_json::object();
      for (const auto& [k, v] : in.dataset_filters) f[k] = v;
      d["filters"] = std::move(f);
    }
  } else if (!in.input_file.empty()) {
    d["type"] = "file";
    d["path"] = in.input_file;
    if (!in.custom_dataset_type.empty()) d["format"] = in.custom_dataset_type;
    if (auto s = echo_synthesis(in); !s.empty()) d["synthesis"] = std::move(s);
    if (in.osl_mean) d["osl"] = distribution(*in.osl_mean, in.osl_stddev);
  } else {
    d["type"] = "synthetic";
    d["prompts"] = echo_prompts(c);
    if (auto p = echo_prefix_prompts(c); !p.empty()) d["prefix_prompts"] = std::move(p);
    echo_turns(c, d);
  }
  if (given(c, "--num-dataset-entries") || in.input_file.empty())
    d["entries"] = in.num_dataset_entries;
  if (given(c, "--dataset-sampling-strategy") && in.sampling_strategy)
    d["sampling"] = config::to_string(*in.sampling_strategy);
  if (in.random_seed) d["random_seed"] = *in.random_seed;
  return d;
}

const char* phase_type(const config::RunConfig& c, const config::PhaseLoad& l, bool profiling) {
  if (profiling && c.load.fixed_schedule) return "fixed_schedule";
  if (profiling && c.load.user_centric_rate) return "user_centric";
  if (!l.request_rate) return "concurrency";
  if (l.arrival_pattern == config::ArrivalPattern::kConstant) return "constant";
  if (l.arrival_pattern == config::ArrivalPattern::kGamma) return "gamma";
  return "poisson";
}

// What every phase may carry: stop conditions, concurrency, ramps.
void echo_phase_load(const config::PhaseLoad& l, ordered_json& p) {
  if (l.request_rate) p["rate"] = *l.request_rate;
  if (l.smoothness) p["smoothness"] = *l.smoothness;
  if (l.concurrency) p["concurrency"] = *l.concurrency;
  if (l.prefill_concurrency) p["prefill_concurrency"] = *l.prefill_concurrency;
  if (l.request_count) p["requests"] = *l.request_count;
  if (l.num_sessions) p["sessions"] = *l.num_sessions;
  if (l.duration_s) p["duration"] = *l.duration_s;
  if (l.grace_period_s) p["grace_period"] = *l.grace_period_s;
  if (l.concurrency_ramp_s) p["concurrency_ramp"] = *l.concurrency_ramp_s;
  if (l.prefill_ramp_s) p["prefill_ramp"] = *l.prefill_ramp_s;
  if (l.rate_ramp_s) p["rate_ramp"] = *l.rate_ramp_s;
}

ordered_json echo_profiling_phase(const config::RunConfig& c) {
  const auto& l = c.load;
  ordered_json p;
  p["name"] = "profiling";
  p["type"] = phase_type(c, l, true);
  if (l.user_centric_rate) {
    p["rate"] = *l.user_centric_rate;
    p["users"] = l.num_users.value_or(1);
  }
  echo_phase_load(l, p);
  if (l.fixed_schedule) {
    p["auto_offset"] = l.fixed_schedule_auto_offset;
    if (l.fixed_schedule_start_offset_ms) p["start_offset"] = *l.fixed_schedule_start_offset_ms;
    if (l.fixed_schedule_end_offset_ms) p["end_offset"] = *l.fixed_schedule_end_offset_ms;
  }
  if (l.cancellation_rate_pct) {
    p["cancellation"] = {{"rate", *l.cancellation_rate_pct}};
    if (l.cancellation_delay_s) p["cancellation"]["delay"] = *l.cancellation_delay_s;
  }
  return p;
}

ordered_json echo_phases(const config::RunConfig& c) {
  auto phases = ordered_json::array();
  if (c.load.warmup_enabled && !c.load.no_warmup) {
    ordered_json w;
    w["name"] = "warmup";
    w["type"] = phase_type(c, c.load.warmup, false);
    echo_phase_load(c.load.warmup, w);
    phases.push_back(std::move(w));
  }
  phases.push_back(echo_profiling_phase(c));
  return phases;
}

ordered_json echo_artifacts(const config::RunConfig& c, const std::string& artifact_dir) {
  const auto& o = c.output;
  ordered_json a;
  if (o.artifact_dir_explicit) a["dir"] = artifact_dir;
  if (!o.export_prefix.empty()) a["prefix"] = o.export_prefix;
  if (o.export_level == config::ExportLevel::kSummary) {
    a["records"] = false;
  } else {
    a["records"] = ordered_json::array({"jsonl"});
  }
  if (o.export_level == config::ExportLevel::kRaw) a["raw"] = true;
  if (c.metrics.export_http_trace) a["trace"] = true;
  if (o.slice_duration_s) a["slice_duration"] = *o.slice_duration_s;
  if (c.metrics.show_trace_timing) a["show_trace_timing"] = true;
  return a;
}

// As AIPerf: a tag -> threshold map in display units, in the order given.
ordered_json echo_slos(const std::vector<core::GoodputTarget>& targets) {
  ordered_json slos = ordered_json::object();
  for (const auto& t : targets) slos[t.tag] = t.value;
  return slos;
}

ordered_json echo_tokenizer(const config::RunConfig& c) {
  ordered_json tokenizer = ordered_json::object();
  if (given(c, "--tokenizer")) tokenizer["name"] = c.tokenizer.name;
  if (given(c, "--tokenizer-revision")) tokenizer["revision"] = c.tokenizer.revision;
  if (given(c, "--tokenizer-trust-remote-code")) tokenizer["trust_remote_code"] = true;
  return tokenizer;
}

// GPU and server-metrics telemetry sections, when the user asked about them.
void echo_telemetry(const config::RunConfig& c, ordered_json& j) {
  const auto& t = c.telemetry;
  if (t.gpu_flag_given || t.no_gpu) {
    ordered_json gpu;
    gpu["enabled"] = !t.no_gpu;
    auto urls = redacted_urls(t.dcgm_urls);
    if (!urls.empty()) gpu["urls"] = std::move(urls);
    if (t.nvml) gpu["mode"] = "pynvml";
    if (!t.custom_metrics_csv.empty()) gpu["metrics_file"] = t.custom_metrics_csv;
    j["gpu_telemetry"] = std::move(gpu);
  }
  if (given(c, "--server-metrics") || given(c, "--server-metrics-formats") || t.no_server_metrics) {
    ordered_json sm;
    sm["enabled"] = !t.no_server_metrics;
    if (!t.server_urls.empty()) sm["urls"] = redacted_urls(t.server_urls);
    if (given(c, "--server-metrics-formats")) sm["formats"] = t.server_formats;
    j["server_metrics"] = std::move(sm);
  }
  if (const auto& n = c.network_latency; n.enabled()) {  // AIPerf 0.11's network_latency section
    ordered_json nl = {{"enabled", true}};
    if (given(c, "--network-latency-ping-interval")) nl["ping_interval"] = n.ping_interval_s;
    if (n.mean_ms) nl["mean_ms"] = *n.mean_ms;
    j["network_latency"] = std::move(nl);
  }
}

ordered_json echo_runtime(const config::RunConfig& c) {
  ordered_json r = ordered_json::object();
  if (given(c, "--ui-type")) {
    r["ui"] = c.ui == config::UiType::kDashboard ? "dashboard"
              : c.ui == config::UiType::kSimple  ? "simple"
                                                 : "none";
  }
  if (c.load.workers_max) r["workers"] = {{"max", *c.load.workers_max}};
  return r;
}

// Settings AIPerf has no key for, after every AIPerf key.
ordered_json echo_inferperf(const config::RunConfig& c, const std::string& artifact_dir) {
  ordered_json x = ordered_json::object();
  x["artifact_directory"] = artifact_dir;
  const auto& in = c.input;
  if (in.no_force_min_tokens) x["no_force_min_tokens"] = true;
  if (in.omit_kv_hints) x["omit_kv_hints"] = true;
  if (c.endpoint.no_stream_usage) x["no_stream_usage"] = true;
  if (c.load.failed_request_threshold)
    x["failed_request_threshold"] = *c.load.failed_request_threshold;
  if (c.metrics.cross_tool) x["cross_tool_metrics"] = true;
  if (c.shard.sharded()) x["shard"] = {{"index", c.shard.index}, {"count", c.shard.count}};
  return x;
}

}  // namespace

nlohmann::ordered_json build_input_config(const config::RunConfig& c,
                                          const std::string& artifact_dir) {
  ordered_json j;
  j["models"] = echo_models(c);
  j["endpoint"] = echo_endpoint(c);
  j["datasets"] = ordered_json::array({echo_dataset(c)});
  j["phases"] = echo_phases(c);
  j["artifacts"] = echo_artifacts(c, artifact_dir);
  if (!c.metrics.goodput_targets.empty()) j["slos"] = echo_slos(c.metrics.goodput_targets);
  if (auto tokenizer = echo_tokenizer(c); !tokenizer.empty()) j["tokenizer"] = tokenizer;
  echo_telemetry(c, j);
  if (auto runtime = echo_runtime(c); !runtime.empty()) j["runtime"] = runtime;
  j["inferperf"] = echo_inferperf(c, artifact_dir);
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
