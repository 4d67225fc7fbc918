#include "config/cli_app.hpp"

#include <string_view>

#include "config/cli_areas.hpp"
#include "config/numeric_ranges.hpp"
#include "core/version.hpp"

namespace inferperf::config {

const std::vector<std::string> kInternalFlags = {
    "--zmq-host",          "--zmq-ipc-path", "--zmq-dual-bind", "--record-processor-service-count",
    "--record-processors", "--api-port",     "--api-host"};

bool is_internal_switch(const std::string& flag) {
  return flag == "--zmq-dual-bind";
}

namespace {

// Help texts end with the accepted range, taken from the same table the check uses.
void add_ranges_to_help(CLI::App& sub) {
  for (CLI::Option* opt : sub.get_options()) {
    if (opt->get_lnames().empty()) continue;
    if (const NumericRange* r = find_numeric_range("--" + opt->get_lnames().front()))
      opt->description(opt->get_description() + " [" + std::string(r->range) + "]");
  }
}

}  // namespace

bool is_numeric_type_name(const std::string& type_name) {
  return type_name == "INT" || type_name == "UINT" || type_name == "FLOAT" ||
         type_name == "NUMBER" || type_name == "BYTES";
}

void add_profile_options(CLI::App& app, CliTargets& t) {
  add_config_file_option(&app, t);
  add_endpoint_options(&app, t);
  add_request_options(&app, t);
  add_input_options(&app, t);
  add_dataset_options(&app, t);
  add_public_dataset_options(&app, t);
  add_dataset_type_options(&app, t);
  add_media_options(&app, t);
  add_load_options(&app, t);
  add_limits_and_output_options(&app, t);
  add_telemetry_and_service_options(&app, t);
  add_observability_options(&app, t);
  add_readiness_options(&app, t);
  add_ranges_to_help(app);
  // The parsing rules of AIPerf 0.11 that apply to many options (cli_tokens.cpp, enum_token.hpp).
  app.footer(
      "Values shown as {a,b} may be typed in any case, with - or _ (CHAT, round-robin, "
      "STICKY_USER_SESSIONS). Comma lists drop the blanks around each item.");
}

namespace {

CLI::App* add_analyze_command(CLI::App& app, std::string_view summary, CliTargets& t) {
  CLI::App* analyze = app.add_subcommand(std::string(kAnalyzeSummary.name), std::string(summary));
  analyze->add_option("artifact_dir", t.outcome.analyze_dir, "The run's artifact folder")
      ->required();
  return analyze;
}

CLI::App* add_analyze_trace_command(CLI::App& app, std::string_view summary, CliTargets& t) {
  CLI::App* analyze_trace =
      app.add_subcommand(std::string(kAnalyzeTraceSummary.name), std::string(summary));
  analyze_trace->add_option("INPUT_FILE", t.trace_positional, "The trace (JSONL)");
  analyze_trace->add_option("--input-file", t.outcome.analyze_trace.input_file,
                            "The trace (JSONL), instead of INPUT_FILE");
  analyze_trace
      ->add_option("--block-size", t.outcome.analyze_trace.block_size,
                   "Tokens per hash_id block (only affects context lengths)")
      ->capture_default_str();
  analyze_trace->add_option("--output-file", t.outcome.analyze_trace.output_file,
                            "Also write the statistics as indented JSON to this file");
  add_ranges_to_help(*analyze_trace);
  return analyze_trace;
}

// One root subcommand: one parsed here gets its options, any other takes every word after it
// (its own parser, run before this one, reads them; it is declared so that --help lists it).
void add_root_command(CliApp& out, const CommandSummary& c, CliTargets& t) {
  CLI::App& app = *out.app;
  if (c.name == kProfileSummary.name) {
    out.profile = app.add_subcommand(std::string(c.name), std::string(c.summary));
    add_profile_options(*out.profile, t);
  } else if (c.name == kAnalyzeSummary.name) {
    out.analyze = add_analyze_command(app, c.summary, t);
  } else if (c.name == kAnalyzeTraceSummary.name) {
    out.analyze_trace = add_analyze_trace_command(app, c.summary, t);
  } else {
    app.add_subcommand(std::string(c.name), std::string(c.summary))->allow_extras();
  }
}

}  // namespace

CliApp build_cli_app(CliTargets& t, std::span<const CommandSummary> commands) {
  CliApp out;
  out.app = std::make_unique<CLI::App>(
      "inferperf - native LLM inference benchmarking client (AIPerf-compatible)", "inferperf");
  CLI::App& app = *out.app;
  app.set_version_flag("--version", std::string("inferperf ") + kVersion);
  app.require_subcommand(1);
  for (const CommandSummary& c : commands) add_root_command(out, c, t);
  if (out.profile == nullptr) add_root_command(out, kProfileSummary, t);
  if (out.analyze == nullptr) add_root_command(out, kAnalyzeSummary, t);
  if (out.analyze_trace == nullptr) add_root_command(out, kAnalyzeTraceSummary, t);
  return out;
}

std::vector<CliOptionInfo> cli_options() {
  CliTargets t;
  const CliApp cli = build_cli_app(t);
  std::vector<CliOptionInfo> out;
  for (const CLI::App* sub : {cli.profile, cli.analyze_trace}) {
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->get_lnames().empty()) continue;  // positionals and -h
      CliOptionInfo info{sub->get_name(),
                         "--" + opt->get_lnames().front(),
                         {},
                         opt->get_type_name(),
                         is_numeric_type_name(opt->get_type_name())};
      for (const auto& l : opt->get_lnames()) info.names.push_back("--" + l);
      for (const auto& s : opt->get_snames()) info.names.push_back("-" + s);
      out.push_back(std::move(info));
    }
  }
  return out;
}

}  // namespace inferperf::config
