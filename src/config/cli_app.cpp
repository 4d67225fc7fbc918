#include "config/cli_app.hpp"

#include "config/cli_areas.hpp"
#include "config/numeric_ranges.hpp"
#include "core/version.hpp"

namespace inferperf::config {

const std::vector<std::string> kInternalFlags = {
    "--zmq-host",          "--zmq-ipc-path", "--record-processor-service-count",
    "--record-processors", "--api-port",     "--api-host"};

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
  add_endpoint_options(&app, t);
  add_input_options(&app, t);
  add_dataset_options(&app, t);
  add_load_options(&app, t);
  add_limits_and_output_options(&app, t);
  add_telemetry_and_service_options(&app, t);
  add_ranges_to_help(app);
}

CliApp build_cli_app(CliTargets& t) {
  CliApp out;
  out.app = std::make_unique<CLI::App>(
      "inferperf - native LLM inference benchmarking client (AIPerf-compatible)", "inferperf");
  CLI::App& app = *out.app;
  app.set_version_flag("--version", std::string("inferperf ") + kVersion);
  app.require_subcommand(1);
  CLI::App* profile = app.add_subcommand("profile", "Run a benchmark against an inference server");
  CLI::App* analyze = app.add_subcommand(
      "analyze", "Rebuild a run's reports from its artifact folder (records file and manifest)");
  analyze->add_option("artifact_dir", t.outcome.analyze_dir, "The run's artifact folder")
      ->required();
  // `inferperf plot` is parsed by plot::parse_plot_command before this parser runs (main); it is
  // declared here so that `inferperf --help` lists it.
  app.add_subcommand("plot", "Charts and a self-contained HTML report from artifact folders")
      ->allow_extras();
  // So is `inferperf merge` (app::parse_merge_command).
  app.add_subcommand("merge",
                     "Join the artifact folders of one benchmark's shards into one artifact folder")
      ->allow_extras();
  // So are `inferperf tokenize` (app::parse_tokenize_command) and `inferperf probe`
  // (app::parse_probe_command).
  app.add_subcommand("tokenize",
                     "Count or list a text's tokens with the tokenizer profile would use")
      ->allow_extras();
  app.add_subcommand("probe",
                     "Tell in a few seconds how a server behaves and which inferperf flags fit")
      ->allow_extras();
  CLI::App* analyze_trace = app.add_subcommand("analyze-trace",
                                               "Statistics of a Mooncake-style trace: lengths, "
                                               "prefix sharing, cache hit rates, block reuse");
  analyze_trace->add_option("INPUT_FILE", t.trace_positional, "The trace (JSONL)");
  analyze_trace->add_option("--input-file", t.outcome.analyze_trace.input_file,
                            "The trace (JSONL), instead of INPUT_FILE");
  analyze_trace
      ->add_option("--block-size", t.outcome.analyze_trace.block_size,
                   "Tokens per hash_id block (only affects context lengths)")
      ->capture_default_str();
  analyze_trace->add_option("--output-file", t.outcome.analyze_trace.output_file,
                            "Also write the statistics as indented JSON to this file");
  add_profile_options(*profile, t);
  add_ranges_to_help(*analyze_trace);
  out.profile = profile;
  out.analyze = analyze;
  out.analyze_trace = analyze_trace;
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
