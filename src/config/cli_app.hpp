// The CLI11 application behind parse_command_line: every subcommand and option, bound to one
// CliTargets. Built once per parse, and by cli_options() to list the options.
#pragma once
#include <CLI/CLI.hpp>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/cli.hpp"

namespace inferperf::config {

// AIPerf flags that only tune its own internals: accepted with one warning.
extern const std::vector<std::string> kInternalFlags;
// Those of kInternalFlags that take no value (--zmq-dual-bind).
bool is_internal_switch(const std::string& flag);

// Where the parser writes: the outcome, plus the raw values turned into it after parsing.
struct CliTargets {
  CliOutcome outcome;
  std::string trace_positional;
  std::string endpoint_type = "chat";
  std::string export_level = "records";
  std::string ui;
  // The enumerated options as given (checked by CLI11), turned into RunConfig's enums after
  // parsing.
  std::string model_selection = "round_robin", connection_reuse = "pooled";
  std::string url_strategy = "round_robin", sampling_strategy, log_level = "INFO";
  std::string arrival_pattern, warmup_arrival_pattern;
  std::vector<std::string> extra_inputs, headers, models;
  std::vector<std::string> internal_values = std::vector<std::string>(kInternalFlags.size());
  bool verbose = false, extra_verbose = false, no_preflight = false;
  std::string max_dataset_memory, max_response_bytes, max_sse_event_bytes;
  std::vector<std::string> gpu_items, server_items, server_formats, goodput;
  std::string otel_url;  // --otel-url as typed
  std::vector<std::string> otel_streams, otel_attributes;
  std::vector<std::string> mlflow_tags;  // --mlflow-tag items as typed
};

struct CliApp {
  std::unique_ptr<CLI::App> app;
  CLI::App* profile = nullptr;
  CLI::App* analyze = nullptr;
  CLI::App* analyze_trace = nullptr;
};

// The application, bound to `t` (which must outlive it and not move). Numeric options carry a
// numeric type name (INT, UINT, FLOAT, or BYTES for the --max-* sizes kept as text) and their
// accepted range (numeric_ranges.hpp) at the end of their help text. `commands`: the root's
// subcommands in --help order (parse_command_line).
CliApp build_cli_app(CliTargets& t, std::span<const CommandSummary> commands = {});

// Every `profile` option, bound to `t`, on `app` (any CLI::App: the profile subcommand today),
// each area's in the order --help lists them, help texts ending with their numeric range.
void add_profile_options(CLI::App& app, CliTargets& t);

// The type names that mark an option as numeric.
bool is_numeric_type_name(const std::string& type_name);

}  // namespace inferperf::config
