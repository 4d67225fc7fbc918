#include "config/cli.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <sstream>

#include "config/cli_app.hpp"
#include "config/cli_areas.hpp"
#include "config/cli_scan.hpp"
#include "config/enum_token.hpp"
#include "config/key_value.hpp"
#include "config/refused_options.hpp"
#include "config/validate.hpp"
#include "config/yaml_config.hpp"
#include "core/byte_size.hpp"
#include "core/error.hpp"
#include "core/secrets.hpp"
#include "core/version.hpp"

namespace inferperf::config {

namespace {

// Space- or comma-separated list items, as AIPerf accepts both; each trimmed as AIPerf 0.11 does.
std::vector<std::string> split_items(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    std::size_t start = 0;
    while (start <= item.size()) {
      auto comma = item.find(',', start);
      if (comma == std::string::npos) comma = item.size();
      std::string one = trim_list_item(std::string_view(item).substr(start, comma - start));
      if (!one.empty()) out.push_back(std::move(one));
      start = comma + 1;
    }
  }
  return out;
}

bool parse_ui(const std::string& s, UiType& out) {
  static const std::map<std::string, UiType> kMap = {
      {"none", UiType::kNone}, {"simple", UiType::kSimple}, {"dashboard", UiType::kDashboard}};
  auto it = kMap.find(s);
  if (it == kMap.end()) return false;
  out = it->second;
  return true;
}

}  // namespace

namespace {

// "-H Authorization:Bearer x" and "--extra-inputs api_key:x" keep the name and hide the value; in
// a JSON object every secret key's value is hidden.
std::string redact_key_values(const std::string& value) {
  if (!value.empty() && value.front() == '{') {
    auto j = nlohmann::ordered_json::parse(value, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return value;
    for (auto& [k, v] : j.items()) {
      if (core::is_secret_name(k)) v = std::string(core::kRedacted);
    }
    return j.dump();
  }
  std::string out;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    const std::string item = value.substr(start, comma - start);
    const auto colon = item.find(':');
    if (start > 0) out += ',';
    if (colon != std::string::npos && core::is_secret_name(item.substr(0, colon))) {
      out += item.substr(0, colon + 1);
      out += core::kRedacted;
    } else {
      out += item;
    }
    start = comma + 1;
  }
  return out;
}

// A Kubernetes Indexed Job gives each pod JOB_COMPLETION_INDEX; the shard count comes from the
// manifest's INFERPERF_SHARD_COUNT. The flags win over both.
void shard_from_environment(RunConfig& c, std::vector<std::string>& errors) {
  auto whole = [&](const char* var, int& out) {
    const char* v = std::getenv(var);
    if (!v || !*v) return false;
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(v, &end, 10);
    if (errno != 0 || *end != '\0' || n < 0 || n > 1'000'000) {
      errors.push_back(std::string(var) + "=" + v + ": not a whole number");
      return false;
    }
    out = static_cast<int>(n);
    return true;
  };
  if (!c.set_options.count("--shard-count") && whole("INFERPERF_SHARD_COUNT", c.shard.count))
    c.set_options.insert("--shard-count");
  // An index alone (any Indexed Job) means nothing without a shard count above 1.
  if (!c.set_options.count("--shard-index") && c.shard.count > 1 &&
      whole("JOB_COMPLETION_INDEX", c.shard.index))
    c.set_options.insert("--shard-index");
}

bool is_key_value_flag(const std::string& a) {
  return a == "-H" || a == "--header" || a == "--extra-inputs";
}

}  // namespace

std::string build_cli_command(const std::vector<std::string>& args) {
  std::string out = "inferperf";
  // A -H/--header/--extra-inputs option takes every value up to the next option.
  enum class Next { kPlain, kSecret, kKeyValues } next = Next::kPlain;
  for (const auto& raw : args) {
    std::string a = raw;
    if (next == Next::kKeyValues && a.starts_with("-")) next = Next::kPlain;
    if (next == Next::kSecret) {
      a = std::string(core::kRedacted);
      next = Next::kPlain;
    } else if (next == Next::kKeyValues) {
      a = redact_key_values(a);
    } else if (a == "--api-key") {
      next = Next::kSecret;
    } else if (is_key_value_flag(a)) {
      next = Next::kKeyValues;
    } else if (a.starts_with("--api-key=")) {
      a = "--api-key=" + std::string(core::kRedacted);
    } else if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos &&
                                            is_key_value_flag(a.substr(0, eq))) {
      a = a.substr(0, eq + 1) + redact_key_values(a.substr(eq + 1));
    } else if (a.starts_with("-H") && a.size() > 2) {
      a = "-H" + redact_key_values(a.substr(2));
    }
    a = core::redact_urls(a);
    out.push_back(' ');
    auto v = coerce_value(a);
    if (v.is_string() && !a.starts_with("-") && a != "profile") {
      out += "'" + a + "'";
    } else {
      out += a;
    }
  }
  return out;
}

namespace {

CliOutcome& refuse(CliOutcome& outcome, const std::vector<std::string>& errors) {
  outcome.exit_code = 2;
  for (const auto& e : errors) outcome.message += "error: " + e + "\n";
  return outcome;
}

// AIPerf flags that inferperf refuses (refused_options.cpp), named before CLI11 reports them as
// unknown.
std::vector<std::string> refused_flags(const std::vector<std::string>& args) {
  return refused_option_errors(args);
}

void finish_analyze_trace(CliTargets& t) {
  CliOutcome& outcome = t.outcome;
  std::string& file = outcome.analyze_trace.input_file;
  if (!file.empty() && !t.trace_positional.empty() && file != t.trace_positional) {
    outcome.exit_code = 2;
    outcome.message = "error: analyze-trace takes one trace: INPUT_FILE or --input-file\n";
  } else if (file.empty() && t.trace_positional.empty()) {
    outcome.exit_code = 2;
    outcome.message = "error: analyze-trace needs the trace: INPUT_FILE or --input-file\n";
  } else {
    if (file.empty()) file = t.trace_positional;
    outcome.action = CliOutcome::Action::kAnalyzeTrace;
  }
}

// -m "" or -m a,,b: an empty name would reach the tokenizer lookup and the request bodies.
void check_model_names(const CliTargets& t, std::vector<std::string>& errors) {
  for (const auto& m : t.models) {
    if (m.empty()) {
      errors.push_back(
          "-m/--model-names: a model name cannot be empty (leave the option out to "
          "ask the server's /v1/models)");
      return;
    }
  }
}

// Flags, choices and switches into the RunConfig.
// The enumerated options, from spellings CLI11 has checked (a value it let through unchanged keeps
// the member's default).
void apply_enumerated_options(CliTargets& t) {
  RunConfig& c = t.outcome.config;
  c.endpoint.model_selection =
      model_selection_from(t.model_selection).value_or(c.endpoint.model_selection);
  c.endpoint.connection_reuse =
      connection_reuse_from(t.connection_reuse).value_or(c.endpoint.connection_reuse);
  c.endpoint.url_strategy = url_strategy_from(t.url_strategy).value_or(c.endpoint.url_strategy);
  if (!t.sampling_strategy.empty())
    c.input.sampling_strategy = sampling_strategy_from(t.sampling_strategy);
  if (!t.arrival_pattern.empty()) c.load.arrival_pattern = arrival_pattern_from(t.arrival_pattern);
  if (!t.warmup_arrival_pattern.empty())
    c.load.warmup.arrival_pattern = arrival_pattern_from(t.warmup_arrival_pattern);
  c.log_level = log_level_from(t.log_level).value_or(c.log_level);
  if (t.verbose) c.log_level = LogLevel::kDebug;
  if (t.extra_verbose) c.log_level = LogLevel::kTrace;
}

void apply_profile_values(CliTargets& t, const CLI::App& profile) {
  RunConfig& c = t.outcome.config;
  for (const CLI::Option* opt : profile.get_options()) {
    // Keyed by the first long name, e.g. "--url" for "-u,--url".
    if (opt->count() > 0 && !opt->get_lnames().empty())
      c.set_options.insert("--" + opt->get_lnames().front());
  }
  c.endpoint.model_names = t.models;
  for (const auto& g : t.goodput) {
    if (!c.metrics.goodput.empty()) c.metrics.goodput += ' ';
    c.metrics.goodput += g;
  }
  c.endpoint.type = endpoint_type_from(t.endpoint_type).value_or(EndpointType::kChat);
  c.endpoint.preflight = !t.no_preflight;
  c.output.export_level = t.export_level == "summary" ? ExportLevel::kSummary
                          : t.export_level == "raw"   ? ExportLevel::kRaw
                                                      : ExportLevel::kRecords;
  c.output.artifact_dir_explicit = profile.count("--output-artifact-dir") > 0;
  apply_enumerated_options(t);
  c.verbose = t.verbose || t.extra_verbose;
  if (!t.ui.empty()) {
    parse_ui(t.ui, c.ui);
  } else {
    c.ui = UiType::kNone;  // chosen by the runner from the terminal when not given
    c.set_options.erase("--ui-type");
  }
  for (std::size_t i = 0; i < kInternalFlags.size(); ++i) {
    if (profile.count(kInternalFlags[i]) > 0) {
      c.warnings.push_back("option " + kInternalFlags[i] +
                           " tunes AIPerf internals that inferperf does not have; ignored");
    }
  }
}

void apply_telemetry(CliTargets& t, const CLI::App& profile, std::vector<std::string>& errors) {
  RunConfig& c = t.outcome.config;
  c.telemetry.gpu_flag_given = profile.count("--gpu-telemetry") > 0;
  if (c.telemetry.gpu_flag_given && c.telemetry.no_gpu)
    errors.push_back("--gpu-telemetry and --no-gpu-telemetry cannot be used together");
  for (const auto& item : split_items(t.gpu_items)) {
    // Keywords in any spelling (NVML, PyNVML); URLs and file names keep theirs.
    const std::string word = normalise_enum_token(item);
    if (word == "nvml" || word == "pynvml") {
      c.telemetry.nvml = true;
    } else if (word == "dashboard") {
      c.telemetry.dashboard = true;
    } else if (word == "amdsmi") {
      errors.push_back(
          "--gpu-telemetry amdsmi: AMD GPUs are not supported yet (use nvml or "
          "DCGM exporter URLs)");
    } else if (word.size() > 4 && word.ends_with(".csv")) {
      if (!c.telemetry.custom_metrics_csv.empty())
        errors.push_back("--gpu-telemetry: only one custom metrics .csv file may be given");
      c.telemetry.custom_metrics_csv = item;
    } else {
      c.telemetry.dcgm_urls.push_back(item);
    }
  }
  if (c.telemetry.nvml && !c.telemetry.dcgm_urls.empty())
    errors.push_back("--gpu-telemetry: nvml cannot be combined with DCGM URLs");
  if (profile.count("--server-metrics") > 0 && c.telemetry.no_server_metrics)
    errors.push_back("--server-metrics and --no-server-metrics cannot be used together");
  c.telemetry.server_urls = split_items(t.server_items);
  if (!t.server_formats.empty()) {
    c.telemetry.server_formats.clear();
    for (const auto& item : split_items(t.server_formats)) {
      const std::string f = normalise_enum_token(item);
      if (f == "parquet") {
        errors.push_back(
            "--server-metrics-formats parquet: inferperf has no Parquet writer (no Debian library "
            "writes Parquet); use json, csv or jsonl and convert, e.g. with pandas "
            "(pd.read_json(path, lines=True).to_parquet(...))");
      } else if (f != "json" && f != "csv" && f != "jsonl") {
        errors.push_back("--server-metrics-formats: unknown format '" + item +
                         "' (json, csv, jsonl)");
      } else {
        c.telemetry.server_formats.push_back(f);
      }
    }
  }
}

void apply_key_values(CliTargets& t, std::vector<std::string>& errors) {
  RunConfig& c = t.outcome.config;
  for (const auto& item : t.extra_inputs) {
    auto kv = parse_key_values(item, "--extra-inputs", true);
    if (!kv) {
      errors.push_back(kv.error().message);
      continue;
    }
    for (auto& p : *kv) c.input.extra.push_back(std::move(p));
  }
  for (const auto& item : t.headers) {
    auto kv = parse_key_values(item, "--header", false, true);
    if (!kv) {
      errors.push_back(kv.error().message);
      continue;
    }
    for (auto& [k, v] : *kv) {
      const std::string problem = header_problem(k, v.get<std::string>());
      if (!problem.empty()) {
        errors.push_back("--header: " + problem);
        continue;
      }
      c.input.headers.emplace_back(k, v.get<std::string>());
    }
  }
  // The key is sent in a header (Authorization: Bearer KEY or x-api-key: KEY).
  if (const std::string problem = header_problem("Authorization", c.endpoint.api_key);
      !problem.empty()) {
    errors.push_back("--api-key holds a line break or control character; refused");
  }

  // The ranges were checked (and the values rewritten as digits) before CLI11 read them.
  const auto byte_limit = [](const std::string& text, std::uint64_t& out) {
    if (const auto bytes = core::parse_byte_size(text)) out = *bytes;
  };
  byte_limit(t.max_dataset_memory, c.limits.max_dataset_memory);
  byte_limit(t.max_response_bytes, c.limits.max_response_bytes);
  byte_limit(t.max_sse_event_bytes, c.limits.max_sse_event_bytes);
}

}  // namespace

CliOutcome parse_command_line(const std::vector<std::string>& args) {
  return parse_command_line(args, {});
}

CliOutcome parse_command_line(const std::vector<std::string>& args,
                              std::span<const CommandSummary> commands) {
  // -f/--config FILE: the file's flags, then the typed ones (yaml_config.hpp, docs/config.md).
  if (const ConfigFileWords file = expand_config_file(args); file.used) {
    CliOutcome from_file;
    if (!file.errors.empty()) {
      from_file.exit_code = 2;
      from_file.message = file.error_text();
      return from_file;
    }
    from_file = parse_command_line(file.words, commands);
    from_file.message = file.point_at_file(from_file.message);
    for (const auto& w : file.translation.warnings) from_file.config.warnings.push_back(w);
    if (from_file.action == CliOutcome::Action::kProfile)
      from_file.config.cli_command = build_cli_command(args);
    return from_file;
  }
  CliTargets t;
  const CliApp cli = build_cli_app(t, commands);
  CLI::App& app = *cli.app;
  CLI::App* profile = cli.profile;
  CLI::App* analyze = cli.analyze;
  CLI::App* analyze_trace = cli.analyze_trace;
  CliOutcome& outcome = t.outcome;
  RunConfig& c = outcome.config;

  std::vector<std::string> checked = args;
  if (auto errors = refused_flags(args); !errors.empty()) return refuse(outcome, errors);
  if (auto errors = scan_arguments(cli, checked); !errors.empty()) {
    const std::string sub = checked.empty() ? "profile" : checked.front();
    refuse(outcome, errors);
    if (sub == "profile" || sub == "analyze" || sub == "analyze-trace")
      outcome.message += "Run 'inferperf " + sub + " --help' for the options.\n";
    return outcome;
  }
  std::vector<std::string> reversed(checked.rbegin(), checked.rend());
  // CLI11 cannot name a two-letter short flag; AIPerf's -vv means --extra-verbose.
  for (auto& a : reversed) {
    if (a == "-vv") a = "--extra-verbose";
  }
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    const auto parsed = app.get_subcommands();
    outcome.message = parsed.empty() ? app.help() : parsed.front()->help();
    return outcome;
  } catch (const CLI::CallForVersion&) {
    outcome.message = std::string("inferperf ") + kVersion + "\n";
    return outcome;
  } catch (const CLI::ParseError& e) {
    outcome.exit_code = 2;
    const std::string sub = analyze_trace->parsed() ? "analyze-trace" : "profile";
    outcome.message = std::string("error: ") + e.what() + "\nRun 'inferperf " + sub +
                      " --help' for the options.\n";
    return outcome;
  }

  if (analyze->parsed()) {
    outcome.action = CliOutcome::Action::kAnalyze;
    return outcome;
  }
  if (analyze_trace->parsed()) {
    finish_analyze_trace(t);
    return outcome;
  }
  std::vector<std::string> errors;
  check_model_names(t, errors);
  apply_profile_values(t, *profile);
  apply_telemetry(t, *profile, errors);
  apply_observability(t, *profile, errors);
  apply_key_values(t, errors);
  shard_from_environment(c, errors);
  auto more = validate_and_resolve(c);
  errors.insert(errors.end(), more.begin(), more.end());
  if (!errors.empty()) return refuse(outcome, errors);
  c.cli_command = build_cli_command(args);
  outcome.action = CliOutcome::Action::kProfile;
  return outcome;
}

}  // namespace inferperf::config
