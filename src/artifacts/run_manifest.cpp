#include "artifacts/run_manifest.hpp"

#include <fstream>
#include <sstream>

#include "report/exporters.hpp"

namespace inferperf::artifacts {

namespace {

using nlohmann::ordered_json;

const char* level_name(config::ExportLevel l) {
  return config::to_string(l);
}

config::ExportLevel level_of(const std::string& s) {
  if (s == "summary") return config::ExportLevel::kSummary;
  if (s == "raw") return config::ExportLevel::kRaw;
  return config::ExportLevel::kRecords;
}

ordered_json options_json(const metrics::MetricOptions& o) {
  ordered_json j;
  j["streaming"] = o.streaming;
  j["produces_tokens"] = o.produces_tokens;
  j["tokenizes_input"] = o.tokenizes_input;
  j["images"] = o.images;
  j["token_source"] =
      o.token_source == metrics::TokenSource::kClientTokenizer ? "client" : "server";
  j["osl_mismatch_pct_threshold"] = o.osl_mismatch_pct_threshold;
  j["osl_mismatch_max_token_threshold"] = o.osl_mismatch_max_token_threshold;
  j["usage_pct_diff_threshold"] = o.usage_pct_diff_threshold;
  auto goodput = ordered_json::array();
  for (const auto& g : o.goodput) goodput.push_back({std::string(g.metric->tag), g.threshold});
  j["goodput"] = goodput;  // base units
  j["cross_tool"] = o.cross_tool;
  j["experimental"] = o.experimental;
  return j;
}

core::Result<metrics::MetricOptions> options_from(const nlohmann::json& j) {
  metrics::MetricOptions o;
  o.streaming = j.at("streaming").get<bool>();
  o.produces_tokens = j.value("produces_tokens", true);  // older manifests: an LLM endpoint
  o.tokenizes_input = j.value("tokenizes_input", true);
  o.images = j.value("images", false);
  o.token_source = j.at("token_source").get<std::string>() == "client"
                       ? metrics::TokenSource::kClientTokenizer
                       : metrics::TokenSource::kServerUsage;
  o.osl_mismatch_pct_threshold = j.at("osl_mismatch_pct_threshold").get<double>();
  o.osl_mismatch_max_token_threshold = j.at("osl_mismatch_max_token_threshold").get<double>();
  o.usage_pct_diff_threshold = j.at("usage_pct_diff_threshold").get<double>();
  for (const auto& g : j.at("goodput")) {
    const auto tag = g.at(0).get<std::string>();
    const metrics::MetricInfo* mi = metrics::find_metric(tag);
    if (!mi) return core::Error{core::ErrorKind::kInput, "unknown goodput metric " + tag};
    o.goodput.push_back({mi, g.at(1).get<double>()});
  }
  o.cross_tool = j.at("cross_tool").get<bool>();
  o.experimental = j.at("experimental").get<bool>();
  return o;
}

}  // namespace

core::Result<bool> write_manifest(const std::filesystem::path& dir,
                                  const report::ReportContext& ctx, const ExportSettings& settings,
                                  bool complete, const std::optional<TokenRecount>& recount) {
  ordered_json j;
  j["manifest_version"] = 1;
  j["complete"] = complete;
  j["benchmark_id"] = ctx.benchmark_id;
  j["title"] = ctx.title;
  j["cli_command"] = ctx.cli_command;
  j["token_source"] = ctx.token_source;
  j["was_cancelled"] = ctx.was_cancelled;
  if (ctx.failure_threshold_exceeded) j["failure_threshold_exceeded"] = true;
  j["phase_start_ns"] = ctx.phase_start_ns ? ctx.anchor.to_wall(ctx.phase_start_ns) : 0;
  j["phase_end_ns"] = ctx.phase_end_ns ? ctx.anchor.to_wall(ctx.phase_end_ns) : 0;
  if (ctx.dropped_arrivals) j["dropped_arrival_count"] = *ctx.dropped_arrivals;
  j["export_level"] = level_name(settings.export_level);
  j["show_trace_timing"] = settings.show_trace_timing;
  if (settings.slice_duration_s) j["slice_duration"] = *settings.slice_duration_s;
  if (!settings.export_prefix.empty()) j["profile_export_prefix"] = settings.export_prefix;
  j["export_http_trace"] = ctx.export_http_trace;
  j["metric_options"] = options_json(settings.metric_options);
  j["input_config"] = ctx.input_config;
  if (!ctx.run_info.is_null()) j["run_info"] = ctx.run_info;
  if (!ctx.agent_depths.empty()) j["agent_depths"] = ctx.agent_depths;
  if (!ctx.telemetry_data.is_null()) j["telemetry_data"] = ctx.telemetry_data;
  j["show_gpu_telemetry"] = ctx.show_gpu_telemetry;
  if (!ctx.gpu_telemetry_note.empty()) j["gpu_telemetry_note"] = ctx.gpu_telemetry_note;
  if (ctx.workload) j["workload_expectation"] = report::expectation_json(*ctx.workload);
  if (ctx.client_load) j["client_load"] = health::load_to_json(*ctx.client_load);
  if (!ctx.shard.is_null()) j["shard"] = ctx.shard;
  if (!ctx.server_behaviour.is_null()) j["server_behaviour"] = ctx.server_behaviour;
  if (ctx.workload_plan) j["workload_plan"] = report::plan_json(*ctx.workload_plan);
  j["fail_on_incomplete_workload"] = ctx.fail_on_incomplete_workload;
  if (recount) {
    j["client_token_recount"] = {{"tokenizer_file", recount->tokenizer_file},
                                 {"context_mode", recount->context_mode}};
  }
  return report::write_atomically(
      dir / kManifestFileName,
      j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

core::Result<RunManifest> read_manifest(const std::filesystem::path& dir) {
  const auto path = dir / kManifestFileName;
  std::ifstream in(path);
  if (!in) {
    return core::Error{core::ErrorKind::kIo,
                       "cannot read the run manifest (is this an inferperf artifact folder?)",
                       path.string()};
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    const auto j = nlohmann::ordered_json::parse(text.str());
    RunManifest m;
    auto& ctx = m.context;
    m.complete = j.at("complete").get<bool>();
    ctx.benchmark_id = j.at("benchmark_id").get<std::string>();
    ctx.title = j.at("title").get<std::string>();
    ctx.cli_command = j.at("cli_command").get<std::string>();
    ctx.token_source = j.at("token_source").get<std::string>();
    ctx.was_cancelled = j.at("was_cancelled").get<bool>();
    ctx.failure_threshold_exceeded = j.value("failure_threshold_exceeded", false);
    ctx.anchor = core::WallAnchor{0, 0};  // records on disk are wall-clock already
    ctx.phase_start_ns = j.at("phase_start_ns").get<std::int64_t>();
    ctx.phase_end_ns = j.at("phase_end_ns").get<std::int64_t>();
    if (j.contains("dropped_arrival_count"))
      ctx.dropped_arrivals = j.at("dropped_arrival_count").get<std::int64_t>();
    ctx.export_http_trace = j.at("export_http_trace").get<bool>();
    ctx.input_config = j.at("input_config");
    if (j.contains("run_info")) ctx.run_info = j.at("run_info");
    if (j.contains("agent_depths"))
      ctx.agent_depths = j.at("agent_depths").get<std::map<std::string, int>>();
    if (j.contains("telemetry_data")) ctx.telemetry_data = j.at("telemetry_data");
    ctx.show_gpu_telemetry = j.value("show_gpu_telemetry", false);
    ctx.gpu_telemetry_note = j.value("gpu_telemetry_note", "");
    if (j.contains("workload_expectation"))
      ctx.workload = report::expectation_from_json(j.at("workload_expectation"));
    if (j.contains("shard")) ctx.shard = j.at("shard");
    if (j.contains("server_behaviour")) ctx.server_behaviour = j.at("server_behaviour");
    if (j.contains("workload_plan"))
      ctx.workload_plan = report::plan_from_json(j.at("workload_plan"));
    ctx.fail_on_incomplete_workload = j.value("fail_on_incomplete_workload", false);
    if (j.contains("client_load")) ctx.client_load = health::load_from_json(j.at("client_load"));
    if (j.contains("client_token_recount")) {
      const auto& r = j.at("client_token_recount");
      m.recount = TokenRecount{r.at("tokenizer_file").get<std::string>(),
                               r.at("context_mode").get<std::string>()};
    }
    ctx.artifact_dir = dir;
    m.settings.export_level = level_of(j.at("export_level").get<std::string>());
    m.settings.show_trace_timing = j.at("show_trace_timing").get<bool>();
    m.settings.export_prefix = j.value("profile_export_prefix", "");
    if (j.contains("slice_duration"))
      m.settings.slice_duration_s = j.at("slice_duration").get<double>();
    auto options = options_from(j.at("metric_options"));
    if (!options)
      return core::Error{core::ErrorKind::kInput, options.error().message, path.string()};
    m.settings.metric_options = std::move(*options);
    return m;
  } catch (const nlohmann::json::exception& e) {
    return core::Error{core::ErrorKind::kInput, std::string("malformed manifest: ") + e.what(),
                       path.string()};
  }
}

}  // namespace inferperf::artifacts
