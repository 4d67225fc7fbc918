#include "app/synthesize/synthesize_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "app/exit_codes.hpp"
#include "app/subcommand_words.hpp"
#include "app/synthesize/agentic_sessions.hpp"
#include "app/validate/mooncake_check.hpp"
#include "dataset/input_file.hpp"
#include "report/exporters.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAgenticTarget = "agentic-code";

SynthesizeCommand synthesize_usage(SynthesizeCommand cmd, const std::string& what) {
  cmd.exit_code = kExitBadConfig;
  cmd.message = usage_message("synthesize", what);
  return cmd;
}

core::Error synthesize_config_error(const std::string& where, const core::Error& e) {
  core::Error out = e;
  out.message =
      "--config " + where + ": " + (e.field.empty() ? "" : "key '" + e.field + "': ") + e.message;
  out.field.clear();
  return out;
}

core::Result<nlohmann::json> synthesize_parse_json(const std::string& text,
                                                   const std::string& where) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const std::size_t at = std::min<std::size_t>(e.byte, text.size());
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<long>(at ? at - 1 : 0), '\n');
    return core::Error{core::ErrorKind::kConfig,
                       fmt::format("--config {}: invalid JSON at line {}: {}", where, line,
                                   dataset::json_exception_reason(e))};
  } catch (const nlohmann::json::exception& e) {
    return core::Error{core::ErrorKind::kConfig, fmt::format("--config {}: invalid JSON: {}", where,
                                                             dataset::json_exception_reason(e))};
  }
}

std::string synthesize_utc_stamp(std::int64_t unix_seconds) {
  const std::time_t t = unix_seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

}  // namespace

SynthesizeCommand parse_synthesize_command(const std::vector<std::string>& args) {
  SynthesizeCommand cmd;
  SynthesizeOptions& o = cmd.options;
  CLI::App app(
      "Write a synthetic workload dataset (AIPerf 0.11's `synthesize`): agentic-code, multi-turn "
      "coding sessions over a layered shared prefix, as a mooncake_trace JSONL that `inferperf "
      "profile --custom-dataset-type mooncake_trace` replays",
      "inferperf synthesize");
  std::string positional;
  app.add_option("TARGET", positional, "The workload: agentic-code (or --target)")->type_name("");
  app.add_option("--target", o.target, "The workload: agentic-code (the only one)");
  app.add_option("--num-sessions", o.num_sessions, "Sessions to generate (default 1000)")
      ->check(CLI::PositiveNumber);
  app.add_option("--output", o.output,
                 "Folder the run folder is created in (default: the current folder)");
  app.add_option("--config", o.config,
                 "Distribution config: a JSON file, a manifest.json of an earlier run, 'default', "
                 "or an inline JSON object (default: the built-in defaults)");
  long long seed = 42;
  app.add_option("--seed", seed, "Random seed; one seed gives the same files (default 42)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--max-isl", o.max_isl,
                 "Context limit in tokens (replaces max_prompt_tokens, 200000 by default)")
      ->check(CLI::Range(2LL, 1'000'000'000LL));
  app.add_option("--max-osl", o.max_osl, "Longest output in tokens (generation_length.max)")
      ->check(CLI::Range(1LL, 1'000'000'000LL));
  if (auto stop = parse_subcommand_words(app, args, "synthesize")) {
    std::tie(cmd.exit_code, cmd.message) = *stop;
    return cmd;
  }
  o.seed = static_cast<std::uint64_t>(seed);
  if (!positional.empty() && !o.target.empty() && positional != o.target)
    return synthesize_usage(std::move(cmd), "give the target once: TARGET or --target");
  if (o.target.empty()) o.target = positional;
  if (o.target.empty())
    return synthesize_usage(std::move(cmd), "--target is required (agentic-code)");
  if (o.target != kAgenticTarget) {
    return synthesize_usage(
        std::move(cmd),
        "--target " + o.target + ": unknown target (the only one is " + kAgenticTarget + ")");
  }
  cmd.run = true;
  return cmd;
}

core::Result<agentic::Config> load_synthesize_config(const std::string& value, std::string& name,
                                                     std::vector<std::string>* ignored) {
  if (value.empty() || value == "default") {
    name = "default";
    return agentic::Config{};
  }
  nlohmann::json j;
  std::string where = value;
  if (value.front() == '{') {
    name = "inline";
    where = "(inline JSON)";
    auto parsed = synthesize_parse_json(value, where);
    if (!parsed) return parsed.error();
    j = std::move(*parsed);
  } else {
    auto content = dataset::read_input_file(value, "config");
    if (!content)
      return core::Error{core::ErrorKind::kConfig, "--config: " + content.error().describe()};
    auto parsed = synthesize_parse_json(*content, value);
    if (!parsed) return parsed.error();
    j = std::move(*parsed);
    name = fs::path(value).stem().string();
  }
  if (!j.is_object())
    return core::Error{core::ErrorKind::kConfig, "--config " + where + ": must be a JSON object"};
  if (j.contains("$schema") && j.contains("properties")) {
    return core::Error{core::ErrorKind::kConfig,
                       "--config " + where + ": this is the config's JSON Schema, not a config"};
  }
  std::string prefix;
  if (auto it = j.find("generation_params"); it != j.end()) {  // a manifest.json
    j = nlohmann::json(*it);
    prefix = "generation_params.";
  }
  std::vector<std::string> unread;
  auto c = agentic::config_from_json(j, &unread);
  if (!c) {
    core::Error e = c.error();
    if (!e.field.empty()) e.field = prefix + e.field;
    return synthesize_config_error(where, e);
  }
  if (ignored)
    for (const std::string& k : unread) ignored->push_back(prefix + k);
  return c;
}

std::string synthesize_run_name(const std::string& config_name, long long num_sessions,
                                std::uint64_t seed, std::int64_t unix_seconds) {
  return fmt::format("{}_{}s_seed{}_{}", config_name, num_sessions, seed,
                     synthesize_utc_stamp(unix_seconds));
}

int run_synthesize(const SynthesizeOptions& o) {
  std::string name;
  std::vector<std::string> ignored;
  auto loaded = load_synthesize_config(o.config, name, &ignored);
  if (!loaded) {
    std::cerr << "error: " << loaded.error().describe() << "\n";
    return kExitBadConfig;
  }
  for (const std::string& k : ignored)
    std::cerr << "warning: --config: key '" << k << "' is not a generator setting; ignored\n";
  auto config = agentic::apply_caps(std::move(*loaded), o.max_isl, o.max_osl);
  if (!config) {
    std::cerr << "error: "
              << synthesize_config_error(o.config.empty() ? "default" : o.config, config.error())
                     .describe()
              << "\n";
    return kExitBadConfig;
  }
  std::cout << "Generating " << o.num_sessions << " sessions (seed=" << o.seed << ")...\n";
  auto sessions = agentic::synthesize_sessions(*config, o.num_sessions, o.seed);
  if (!sessions) {
    std::cerr << "error: " << sessions.error().describe() << "\n";
    return kExitBadConfig;
  }
  const agentic::DatasetText text = agentic::dataset_jsonl(*config, *sessions);
  // The rows must replay: checked as `inferperf validate` checks any trace.
  const TraceCheck check = check_mooncake_trace(text.jsonl, static_cast<int>(config->block_size));
  if (check.problem_count > 0) {
    const TraceProblem& p = check.problems.front();
    std::cerr << fmt::format("error: the generated rows do not validate: line {}: {}: {}\n", p.line,
                             p.field, p.message);
    return kExitRunFailed;
  }
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  const fs::path dir = fs::path(o.output) / synthesize_run_name(name, o.num_sessions, o.seed, now);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << "error: --output " << o.output << ": cannot create " << dir.string() << ": "
              << ec.message() << "\n";
    return kExitRunFailed;
  }
  nlohmann::ordered_json manifest;
  manifest["seed"] = o.seed;
  manifest["num_sessions"] = sessions->size();
  manifest["config_name"] = name;
  manifest["generation_params"] = agentic::config_to_json(*config);
  const fs::path jsonl = dir / "dataset.jsonl";
  const fs::path manifest_path = dir / "manifest.json";
  for (auto [path, content] :
       {std::pair{jsonl, text.jsonl}, std::pair{manifest_path, manifest.dump(2) + "\n"}}) {
    if (auto w = report::write_atomically(path, content); !w) {
      std::cerr << "error: " << w.error().describe() << "\n";
      return kExitRunFailed;
    }
  }
  std::cout << "Run directory: " << dir.string() << "\n"
            << "  JSONL:      " << jsonl.string() << " (" << text.rows << " turns, "
            << sessions->size() << " sessions)\n"
            << "  Manifest:   " << manifest_path.string() << "\n"
            << "  Validation: mooncake trace (" << check.records << " rows)\n";
  if (text.renumbered_blocks > 0)
    std::cout << "  " << text.renumbered_blocks
              << " partial last blocks got ids of their own (one size per hash id)\n";
  std::cout << "Replay: inferperf profile --input-file " << jsonl.string()
            << " --custom-dataset-type mooncake_trace"
            << (config->block_size != 512
                    ? " --isl-block-size " + std::to_string(config->block_size)
                    : std::string())
            << " ...\n";
  return kExitOk;
}

}  // namespace inferperf::app
