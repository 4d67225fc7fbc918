// The `benchmark:` body of a YAML configuration, block by block, into profile flags (the phases
// are in yaml_phases.cpp).
#include <cctype>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/yaml_support.hpp"

namespace inferperf::config::yaml {

namespace {

// A string or a list of strings, joined with commas (the list options split them again).
std::optional<std::string> body_text_list(Ctx& ctx, const At& at) {
  if (!at.node.IsSequence()) return ctx.text(at);
  std::string joined;
  for (std::size_t k = 0; k < at.node.size(); ++k) {
    auto v = ctx.text(at.child(at.node[k], std::to_string(k)));
    if (!v) return std::nullopt;
    joined += (joined.empty() ? "" : ",") + *v;
  }
  if (joined.empty()) ctx.error(at, "the list is empty");
  return joined.empty() ? std::nullopt : std::optional<std::string>(joined);
}

void body_model_items(Ctx& ctx, const At& items, std::string& names) {
  if (!items.node.IsSequence()) {
    ctx.error(items, "expected a list of models");
    return;
  }
  for (std::size_t k = 0; k < items.node.size(); ++k) {
    const At item = items.child(items.node[k], std::to_string(k));
    std::optional<std::string> name;
    if (item.node.IsMap()) {
      if (!ctx.check_keys(item, {"name", "weight", "lora", "modalities", "tokenizer"})) continue;
      for (const char* key : {"weight", "lora", "modalities", "tokenizer"}) {
        if (const YAML::Node n = Ctx::get(item.node, key))
          ctx.refuse(item.child(n, key),
                     "per-model settings (weights, LoRA, modalities, tokenizers) do not exist in "
                     "inferperf; one tokenizer serves every model");
      }
      if (const YAML::Node n = Ctx::get(item.node, "name"))
        name = ctx.text(item.child(n, "name"));
      else
        ctx.error(item, "a model item needs a name");
    } else {
      name = ctx.text(item);
    }
    if (name) names += (names.empty() ? "" : ",") + *name;
  }
}

}  // namespace

void translate_models(Ctx& ctx, const At& at) {
  if (!at.node.IsMap()) {
    if (auto v = body_text_list(ctx, at)) ctx.emit("--model-names", {*v}, at);
    return;
  }
  if (!ctx.check_keys(at, {"strategy", "items"})) return;
  ctx.text_flag(at, "strategy", "--model-selection-strategy");
  std::string names;
  if (const YAML::Node items = Ctx::get(at.node, "items"))
    body_model_items(ctx, at.child(items, "items"), names);
  if (!names.empty()) ctx.emit("--model-names", {names}, at);
}

void translate_endpoint(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"urls",
                           "url",
                           "url_strategy",
                           "type",
                           "path",
                           "api_key",
                           "timeout",
                           "streaming",
                           "transport",
                           "connection_reuse",
                           "use_legacy_max_tokens",
                           "use_server_token_count",
                           "template",
                           "headers",
                           "extra",
                           "download_video_content",
                           "request_content_type",
                           "session_header",
                           "wait_for_model_timeout",
                           "wait_for_model_interval",
                           "wait_for_model_mode"}))
    return;
  for (const char* key : {"url", "urls"}) {
    if (const YAML::Node n = Ctx::get(at.node, key)) {
      const At u = at.child(n, key);
      if (auto v = body_text_list(ctx, u)) ctx.emit("--url", {*v}, u);
    }
  }
  ctx.text_flag(at, "url_strategy", "--url-strategy");
  ctx.text_flag(at, "type", "--endpoint-type");
  ctx.text_flag(at, "path", "--custom-endpoint");
  ctx.text_flag(at, "api_key", "--api-key");
  ctx.duration_flag(at, "timeout", "--request-timeout-seconds");
  ctx.switch_flag(at, "streaming", "--streaming");
  ctx.text_flag(at, "transport", "--transport");
  ctx.text_flag(at, "connection_reuse", "--connection-reuse-strategy");
  ctx.switch_flag(at, "use_legacy_max_tokens", "--use-legacy-max-tokens");
  ctx.switch_flag(at, "use_server_token_count", "--use-server-token-count");
  ctx.text_flag(at, "session_header", "--session-header");
  ctx.duration_flag(at, "wait_for_model_timeout", "--wait-for-model-timeout");
  for (const char* key : {"headers", "extra"}) {
    const YAML::Node n = Ctx::get(at.node, key);
    if (!n || n.IsNull()) continue;
    const At m = at.child(n, key);
    if (!m.node.IsMap()) {
      ctx.error(m, "expected a mapping of names to values");
      continue;
    }
    ctx.emit(std::string(key) == "headers" ? "--header" : "--extra-inputs", {to_json_text(n)}, m);
  }
  ctx.refuse_unless_noop(at, "template",
                         "request templates are not implemented (use --extra-inputs)");
  ctx.switch_flag(at, "download_video_content", "--download-video-content");
  ctx.duration_flag(at, "wait_for_model_interval", "--wait-for-model-interval");
  ctx.text_flag(at, "wait_for_model_mode", "--wait-for-model-mode");
  ctx.text_flag(at, "request_content_type", "--request-content-type");
}

namespace {

void body_synthetic_prompts(Ctx& ctx, const At& ds) {
  // `isl`/`osl` beside `prompts` are hoisted into it.
  for (const char* key : {"isl", "osl"}) {
    if (const YAML::Node n = Ctx::get(ds.node, key))
      ctx.distribution(ds.child(n, key), key == std::string("isl") ? "--isl" : "--osl",
                       key == std::string("isl") ? "--isl-stddev" : "--osl-stddev");
  }
  const YAML::Node p = Ctx::get(ds.node, "prompts");
  if (p && !p.IsNull()) {
    const At at = ds.child(p, "prompts");
    if (ctx.check_keys(at, {"isl", "osl", "block_size", "batch_size", "sequence_distribution"})) {
      if (const YAML::Node n = Ctx::get(p, "isl"))
        ctx.distribution(at.child(n, "isl"), "--isl", "--isl-stddev");
      if (const YAML::Node n = Ctx::get(p, "osl"))
        ctx.distribution(at.child(n, "osl"), "--osl", "--osl-stddev");
      ctx.number_flag(at, "block_size", "--isl-block-size");
      ctx.number_flag(at, "batch_size", "--prompt-batch-size");
      ctx.text_flag(at, "sequence_distribution", "--seq-dist");
    }
  }
  const YAML::Node pp = Ctx::get(ds.node, "prefix_prompts");
  if (pp && !pp.IsNull()) {
    const At at = ds.child(pp, "prefix_prompts");
    if (ctx.check_keys(at,
                       {"pool_size", "length", "shared_system_length", "user_context_length"})) {
      ctx.number_flag(at, "pool_size", "--num-prefix-prompts");
      ctx.number_flag(at, "length", "--prefix-prompt-length");
      ctx.number_flag(at, "shared_system_length", "--shared-system-prompt-length");
      ctx.number_flag(at, "user_context_length", "--user-context-prompt-length");
    }
  }
  if (const YAML::Node n = Ctx::get(ds.node, "turns"))
    ctx.distribution(ds.child(n, "turns"), "--conversation-turn-mean",
                     "--conversation-turn-stddev");
  if (const YAML::Node n = Ctx::get(ds.node, "turn_delay"))
    ctx.distribution(ds.child(n, "turn_delay"), "--conversation-turn-delay-mean",
                     "--conversation-turn-delay-stddev");
  ctx.number_flag(ds, "turn_delay_ratio", "--conversation-turn-delay-ratio");
  translate_media(ctx, ds);
  ctx.refuse_unless_noop(ds, "rankings",
                         "the rankings shape is not translated yet; give the --rankings-* flags");
}

void body_file_dataset(Ctx& ctx, const At& ds) {
  ctx.text_flag(ds, "path", "--input-file");
  ctx.text_flag(ds, "format", "--custom-dataset-type");
  ctx.refuse_unless_noop(ds, "records", "inline records are not read; write them to a file");
  ctx.refuse_unless_noop(ds, "inter_turn_delay_cap_seconds", "turn delays are never capped");
  if (const YAML::Node n = Ctx::get(ds.node, "osl"))
    ctx.distribution(ds.child(n, "osl"), "--osl", "--osl-stddev");
  const YAML::Node s = Ctx::get(ds.node, "synthesis");
  if (!s || s.IsNull()) return;
  const At at = ds.child(s, "synthesis");
  if (!ctx.check_keys(at,
                      {"speedup_ratio", "prompt_len_multiplier", "max_isl", "max_osl",
                       "prefix_len_multiplier", "prefix_root_multiplier", "output_len_multiplier"}))
    return;
  ctx.number_flag(at, "speedup_ratio", "--synthesis-speedup-ratio");
  ctx.number_flag(at, "prompt_len_multiplier", "--synthesis-prompt-len-multiplier");
  ctx.number_flag(at, "max_isl", "--synthesis-max-isl");
  ctx.number_flag(at, "max_osl", "--synthesis-max-osl");
  for (const char* key :
       {"prefix_len_multiplier", "prefix_root_multiplier", "output_len_multiplier"})
    ctx.refuse_unless_noop(at, key, "this trace synthesis step is not implemented");
}

// filters: a mapping of keys to values, or a list of KEY=VALUE items (--dataset-filter, which
// checks them).
void body_dataset_filters(Ctx& ctx, const At& ds) {
  const YAML::Node n = Ctx::get(ds.node, "filters");
  if (!n || n.IsNull()) return;
  const At at = ds.child(n, "filters");
  std::vector<std::string> items;
  if (n.IsMap()) {
    for (const auto& kv : n) {
      const auto value = ctx.text(at.child(kv.second, kv.first.Scalar()));
      if (!value) return;  // ctx.text said why, at the key
      items.push_back(kv.first.Scalar() + "=" + *value);
    }
  } else if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i) {
      const auto item = ctx.text(at.child(n[i], std::to_string(i)));
      if (!item) return;
      items.push_back(*item);
    }
  } else {
    ctx.error(at, "expected a mapping of keys to values or a list of KEY=VALUE items");
    return;
  }
  if (!items.empty()) ctx.emit("--dataset-filter", items, at);
}

void body_dataset(Ctx& ctx, const At& ds) {
  const YAML::Node type_node = Ctx::get(ds.node, "type");
  std::string type = "synthetic";
  if (type_node) {
    if (auto v = ctx.text(ds.child(type_node, "type"))) type = *v;
  }
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (type == "synthetic") {
    if (!ctx.check_keys(ds, {"name", "type", "entries", "sampling", "random_seed", "prompts", "isl",
                             "osl", "prefix_prompts", "turns", "turn_delay", "turn_delay_ratio",
                             "images", "audio", "video", "rankings"}))
      return;
    body_synthetic_prompts(ctx, ds);
  } else if (type == "file") {
    if (!ctx.check_keys(ds, {"name", "type", "path", "records", "format", "sampling", "synthesis",
                             "entries", "random_seed", "inter_turn_delay_cap_seconds", "osl"}))
      return;
    body_file_dataset(ctx, ds);
  } else if (type == "public") {
    if (!ctx.check_keys(ds, {"name", "type", "dataset", "entries", "random_seed", "hf_subset",
                             "filters", "sampling"}))
      return;
    ctx.text_flag(ds, "dataset", "--public-dataset");
    ctx.text_flag(ds, "hf_subset", "--hf-subset");
    body_dataset_filters(ctx, ds);
  } else {
    ctx.error(ds.child(type_node, "type"),
              "unknown dataset type '" + type + "' (synthetic, file, public)");
    return;
  }
  ctx.number_flag(ds, "entries", "--num-dataset-entries");
  ctx.text_flag(ds, "sampling", "--dataset-sampling-strategy");
  ctx.number_flag(ds, "random_seed", "--random-seed");
}

}  // namespace

void translate_datasets(Ctx& ctx, const At& body) {
  if (const YAML::Node one = Ctx::get(body.node, "dataset")) {
    if (Ctx::get(body.node, "datasets")) ctx.error(body, "give either dataset or datasets");
    body_dataset(ctx, body.child(one, "dataset"));
    return;
  }
  const YAML::Node many = Ctx::get(body.node, "datasets");
  if (!many || many.IsNull()) return;
  const At at = body.child(many, "datasets");
  if (!many.IsSequence() || many.size() != 1) {
    ctx.error(at, "expected a list of exactly one dataset (AIPerf 0.11 runs one)");
    return;
  }
  const YAML::Node entry = many[0];
  const YAML::Node name = Ctx::get(entry, "name");
  body_dataset(ctx, at.child(entry, name && name.IsScalar() ? name.Scalar() : "0"));
}

void translate_artifacts(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"dir", "prefix", "summary", "records", "raw", "trace", "slice_duration",
                           "show_trace_timing", "user_files", "auto_plot", "plot_required",
                           "export_outputs_json"}))
    return;
  ctx.text_flag(at, "dir", "--artifact-dir");
  ctx.text_flag(at, "prefix", "--profile-export-prefix");
  ctx.refuse_unless_noop(at, "user_files", "user files are not copied into the artifact folder");
  ctx.switch_flag(at, "plot_required", "--plot-required");
  ctx.refuse_unless_noop(at, "export_outputs_json", "outputs.json is not written");
  const auto off = [&](std::string_view key) {  // `false` (or an empty list) turns a file off
    const YAML::Node n = Ctx::get(at.node, key);
    return n && ((n.IsScalar() && n.Scalar() == "false") || (n.IsSequence() && n.size() == 0));
  };
  if (off("summary"))
    ctx.refuse(at.child(Ctx::get(at.node, "summary"), "summary"),
               "the summary exports are always written");
  const YAML::Node raw = Ctx::get(at.node, "raw");
  const bool raw_on = raw && raw.IsScalar() && raw.Scalar() != "false" && !raw.IsNull();
  if (raw_on && off("records")) {
    ctx.error(at.child(raw, "raw"), "raw exports need the records export");
  } else if (raw_on) {
    ctx.emit("--export-level", {"raw"}, at.child(raw, "raw"));
  } else if (off("records")) {
    ctx.emit("--export-level", {"summary"}, at.child(Ctx::get(at.node, "records"), "records"));
  }
  ctx.switch_flag(at, "trace", "--export-http-trace");
  ctx.duration_flag(at, "slice_duration", "--slice-duration");
  ctx.switch_flag(at, "show_trace_timing", "--show-trace-timing");
  ctx.pair_flag(at, "auto_plot", "--auto-plot", "--no-auto-plot");
}

namespace {

// gpu_telemetry / server_metrics: false, a list of URLs, or {enabled, urls}.
// benchmark.otel: {url (or endpoint), streams (or stream), resource_attributes (a mapping or
// key=value items), gen_ai_provider, enabled} into the --otel-* flags (docs/observability.md).
void body_otel(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"enabled", "url", "endpoint", "streams", "stream", "resource_attributes",
                           "gen_ai_provider"}))
    return;
  if (const YAML::Node e = Ctx::get(at.node, "enabled")) {
    const auto b = ctx.boolean(at.child(e, "enabled"));
    if (b && !*b) return;
  }
  for (const char* key : {"url", "endpoint"}) ctx.text_flag(at, key, "--otel-url");
  for (const char* key : {"streams", "stream"}) {
    if (const YAML::Node s = Ctx::get(at.node, key)) {
      if (auto v = body_text_list(ctx, at.child(s, key)))
        ctx.emit("--stream", {*v}, at.child(s, key));
    }
  }
  if (const YAML::Node r = Ctx::get(at.node, "resource_attributes")) {
    const At ra = at.child(r, "resource_attributes");
    if (r.IsMap()) {
      std::string items;
      for (const auto& kv : r) {
        auto v = ctx.text(ra.child(kv.second, kv.first.Scalar()));
        if (v) items += (items.empty() ? "" : ",") + kv.first.Scalar() + "=" + *v;
      }
      if (!items.empty()) ctx.emit("--otel-resource-attributes", {items}, ra);
    } else if (auto v = body_text_list(ctx, ra)) {
      ctx.emit("--otel-resource-attributes", {*v}, ra);
    }
  }
  ctx.text_flag(at, "gen_ai_provider", "--gen-ai-provider");
}

// benchmark.mlflow: {tracking_uri, experiment, run_name, tags (a mapping), parent_run_id,
// artifact_globs (a list), enabled} into the --mlflow-* flags (docs/observability.md).
void body_mlflow(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"enabled", "tracking_uri", "experiment", "run_name", "tags",
                           "parent_run_id", "artifact_globs"}))
    return;
  if (const YAML::Node e = Ctx::get(at.node, "enabled")) {
    const auto b = ctx.boolean(at.child(e, "enabled"));
    if (b && !*b) return;
  }
  ctx.text_flag(at, "tracking_uri", "--mlflow-tracking-uri");
  ctx.text_flag(at, "experiment", "--mlflow-experiment");
  ctx.text_flag(at, "run_name", "--mlflow-run-name");
  ctx.text_flag(at, "parent_run_id", "--mlflow-parent-run-id");
  if (const YAML::Node t = Ctx::get(at.node, "tags"); t && !t.IsNull()) {
    const At tags = at.child(t, "tags");
    if (!t.IsMap()) {
      ctx.error(tags, "expected a mapping of tag names to values");
    } else if (t.size() > 0) {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& kv : t) {
        if (auto v = ctx.text(tags.child(kv.second, kv.first.Scalar())))
          object[kv.first.Scalar()] = *v;
      }
      ctx.emit("--mlflow-tag", {object.dump()}, tags);
    }
  }
  if (const YAML::Node g = Ctx::get(at.node, "artifact_globs"); g && !g.IsNull()) {
    const At globs = at.child(g, "artifact_globs");
    std::vector<std::string> items;
    if (g.IsSequence()) {
      for (std::size_t k = 0; k < g.size(); ++k) {
        if (auto v = ctx.text(globs.child(g[k], std::to_string(k)))) items.push_back(*v);
      }
    } else if (auto v = ctx.text(globs)) {
      items.push_back(*v);
    }
    if (!items.empty()) ctx.emit("--mlflow-artifact-glob", std::move(items), globs);
  }
}

void body_telemetry(Ctx& ctx, const At& body, std::string_view key, const std::string& on,
                    const std::string& off) {
  const YAML::Node n = Ctx::get(body.node, key);
  if (!n || n.IsNull()) return;
  const At at = body.child(n, key);
  if (n.IsScalar()) {
    const auto b = ctx.boolean(at);
    if (b && !*b) ctx.emit(off, {}, at);
    return;
  }
  if (n.IsSequence()) {
    if (auto v = body_text_list(ctx, at)) ctx.emit(on, {*v}, at);
    return;
  }
  if (!ctx.check_keys(at, {"enabled", "urls", "formats"})) return;
  if (const YAML::Node e = Ctx::get(n, "enabled")) {
    const auto b = ctx.boolean(at.child(e, "enabled"));
    if (b && !*b) ctx.emit(off, {}, at.child(e, "enabled"));
  }
  if (const YAML::Node u = Ctx::get(n, "urls")) {
    if (auto v = body_text_list(ctx, at.child(u, "urls"))) ctx.emit(on, {*v}, at.child(u, "urls"));
  }
  if (const YAML::Node f = Ctx::get(n, "formats")) {
    const At fa = at.child(f, "formats");
    if (key != "server_metrics")
      ctx.error(fa, "unknown key");
    else if (auto v = body_text_list(ctx, fa))
      ctx.emit("--server-metrics-formats", {*v}, fa);
  }
}

void body_runtime(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"ui", "workers", "record_processors", "service_run_type",
                           "communication", "api_port", "api_host", "dataset_api_base_url",
                           "workers_per_pod", "record_processors_per_pod", "workers_min"}))
    return;
  ctx.text_flag(at, "ui", "--ui-type");
  if (const YAML::Node w = Ctx::get(at.node, "workers")) {
    const At wa = at.child(w, "workers");
    if (w.IsMap()) {
      if (ctx.check_keys(wa, {"max"})) ctx.number_flag(wa, "max", "--workers-max");
    } else if (auto v = ctx.number(wa)) {
      ctx.emit("--workers-max", {*v}, wa);
    }
  }
  for (const char* key :
       {"record_processors", "service_run_type", "communication", "api_port", "api_host",
        "dataset_api_base_url", "workers_per_pod", "record_processors_per_pod", "workers_min"}) {
    if (const YAML::Node n = Ctx::get(at.node, key))
      ctx.warn(at.child(n, key), "tunes AIPerf's services, which inferperf does not have; ignored");
  }
}

}  // namespace

void translate_services(Ctx& ctx, const At& body) {
  if (const YAML::Node n = Ctx::get(body.node, "slos"); n && !n.IsNull()) {
    const At at = body.child(n, "slos");
    if (!n.IsMap()) {
      ctx.error(at, "expected a mapping of metric tags to values");
    } else {
      std::string targets;
      for (const auto& kv : n) {
        auto v = ctx.number(at.child(kv.second, kv.first.Scalar()));
        if (v) targets += (targets.empty() ? "" : " ") + kv.first.Scalar() + ":" + *v;
      }
      if (!targets.empty()) ctx.emit("--goodput", {targets}, at);
    }
  }
  if (const YAML::Node n = Ctx::get(body.node, "tokenizer"); n && !n.IsNull()) {
    const At at = body.child(n, "tokenizer");
    if (n.IsScalar()) {
      ctx.text_flag(body, "tokenizer", "--tokenizer");
    } else if (ctx.check_keys(at, {"name", "revision", "trust_remote_code"})) {
      ctx.text_flag(at, "name", "--tokenizer");
      ctx.text_flag(at, "revision", "--tokenizer-revision");
      ctx.switch_flag(at, "trust_remote_code", "--tokenizer-trust-remote-code");
    }
  }
  body_telemetry(ctx, body, "gpu_telemetry", "--gpu-telemetry", "--no-gpu-telemetry");
  body_telemetry(ctx, body, "server_metrics", "--server-metrics", "--no-server-metrics");
  if (const YAML::Node n = Ctx::get(body.node, "runtime"); n && !n.IsNull())
    body_runtime(ctx, body.child(n, "runtime"));
  if (const YAML::Node n = Ctx::get(body.node, "logging"); n && !n.IsNull()) {
    const At at = body.child(n, "logging");
    if (ctx.check_keys(at, {"level"})) ctx.text_flag(at, "level", "--log-level");
  }
  if (const YAML::Node n = Ctx::get(body.node, "metrics"); n && !n.IsNull()) {
    const At at = body.child(n, "metrics");
    ctx.check_keys(at, {});
  }
  if (const YAML::Node n = Ctx::get(body.node, "otel"); n && !n.IsNull())
    body_otel(ctx, body.child(n, "otel"));
  if (const YAML::Node n = Ctx::get(body.node, "mlflow"); n && !n.IsNull())
    body_mlflow(ctx, body.child(n, "mlflow"));
  ctx.refuse_unless_noop(body, "wandb",
                         "W&B has no documented public HTTP API for logging runs; use mlflow or "
                         "otel");
  ctx.refuse_unless_noop(body, "accuracy", "accuracy mode is out of scope for inferperf");
  ctx.refuse_unless_noop(body, "network_latency",
                         "the network_latency block's fields are not mapped; use the "
                         "--network-latency-* flags beside the file");
}

}  // namespace inferperf::config::yaml
