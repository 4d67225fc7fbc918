// Command-line parsing for `inferperf profile` (AIPerf flag names and aliases) into a RunConfig.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/run_config.hpp"

namespace inferperf::config {

// `inferperf analyze-trace`: the trace to read and the analysis options.
struct AnalyzeTraceArgs {
  std::string input_file;
  std::int64_t block_size = 512;
  std::string output_file;  // empty: console only
};

struct CliOutcome {
  enum class Action { kProfile, kAnalyze, kAnalyzeTrace, kExit } action = Action::kExit;
  int exit_code = 0;    // for kExit: 0 after --help/--version, 2 on a bad command line
  std::string message;  // what to print for kExit (help text or every error found)
  RunConfig config;
  std::string analyze_dir;         // kAnalyze: the artifact folder to rebuild
  AnalyzeTraceArgs analyze_trace;  // kAnalyzeTrace
};

// A subcommand `inferperf --help` lists, with the line it shows.
struct CommandSummary {
  std::string_view name;
  std::string_view summary;
};

// The subcommands parsed here, with their lines in `inferperf --help`.
inline constexpr CommandSummary kProfileSummary{"profile",
                                                "Run a benchmark against an inference server"};
inline constexpr CommandSummary kAnalyzeSummary{
    "analyze", "Rebuild a run's reports from its artifact folder (records file and manifest)"};
inline constexpr CommandSummary kAnalyzeTraceSummary{
    "analyze-trace",
    "Statistics of a Mooncake-style trace: lengths, prefix sharing, cache hit rates, block reuse"};

// `commands`: every subcommand of `inferperf`, in the order `inferperf --help` lists them. The
// ones parsed here (profile, analyze, analyze-trace; one left out is added last) get their
// options; any other takes every word after it and is only listed, its own parser runs instead
// (app's command table passes them, so that config needs no list of them).
CliOutcome parse_command_line(const std::vector<std::string>& args,
                              std::span<const CommandSummary> commands);
// The subcommands parsed here only (sweep children, tests).
CliOutcome parse_command_line(const std::vector<std::string>& args);

// One option of `inferperf profile` or `inferperf analyze-trace`, listed from the same CLI11
// application parse_command_line builds (so a test over them cannot miss a new flag).
struct CliOptionInfo {
  std::string subcommand;          // "profile" or "analyze-trace"
  std::string name;                // the first long name: "--request-rate"
  std::vector<std::string> names;  // every spelling: "--isl", "-b", ...
  std::string type_name;           // CLI11's: INT, UINT, FLOAT, BYTES, TEXT, ...
  bool numeric = false;            // takes a number (also the --max-* sizes kept as text)
};
std::vector<CliOptionInfo> cli_options();

// Reproduction line as AIPerf prints it: strings single-quoted, numbers and flags bare.
std::string build_cli_command(const std::vector<std::string>& args);

}  // namespace inferperf::config
