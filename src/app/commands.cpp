#include "app/commands.hpp"

#include <string>
#include <utility>

#include "app/analyze/analyze.hpp"
#include "app/analyze/analyze_trace.hpp"
#include "app/completion/completion_command.hpp"
#include "app/config_command/config_command.hpp"
#include "app/exit_codes.hpp"
#include "app/last_resort.hpp"
#include "app/merge/merge.hpp"
#include "app/plot/plot_command.hpp"
#include "app/plugins/plugins_command.hpp"
#include "app/probe/probe_command.hpp"
#include "app/profile/profile_command.hpp"
#include "app/profile/runner.hpp"
#include "app/results.hpp"
#include "app/subcommand_words.hpp"
#include "app/synthesize/synthesize_command.hpp"
#include "app/tokenize/tokenize_command.hpp"
#include "app/validate/validate_command.hpp"
#include "config/cli.hpp"
#include "plot/plot.hpp"
#include "plot/plot_cli.hpp"

namespace inferperf::app {

namespace {

// plot, merge, tokenize and probe: `parse` reads the words after NAME into a result that either
// runs (`run` with its options) or says what to print and the exit code.
template <auto parse, auto run>
int parse_words_and_run(const std::vector<std::string>& args) {
  auto parsed = parse(std::vector<std::string>(args.begin() + 1, args.end()));
  if (!parsed.run) return print_instead_of_running(parsed.exit_code, parsed.message);
  return run(parsed.options);
}

int run_parsed_by_config(const std::vector<std::string>& args);

constexpr Command kCommands[] = {
    {config::kProfileSummary.name, config::kProfileSummary.summary, "profiling",
     &run_profile_command},
    {config::kAnalyzeSummary.name, config::kAnalyzeSummary.summary, "analyzing",
     &run_parsed_by_config},
    {"plot", "Charts and a self-contained HTML report from artifact folders", "plotting",
     &parse_words_and_run<&plot::parse_plot_command, &run_plot_command>},
    {"merge", "Join the artifact folders of one benchmark's shards into one artifact folder",
     "merging", &parse_words_and_run<&parse_merge_command, &run_merge>},
    {"tokenize", "Count or list a text's tokens with the tokenizer profile would use", "tokenizing",
     &parse_words_and_run<&parse_tokenize_command, &run_tokenize>},
    {"probe", "Tell in a few seconds how a server behaves and which inferperf flags fit", "probing",
     &parse_words_and_run<&parse_probe_command, &run_probe>},
    {config::kAnalyzeTraceSummary.name, config::kAnalyzeTraceSummary.summary, "analyzing the trace",
     &run_parsed_by_config},
    {"synthesize", "Write a synthetic agentic-code workload as a mooncake_trace dataset",
     "synthesizing", &parse_words_and_run<&parse_synthesize_command, &run_synthesize>},
    {"validate", "Check a mooncake trace file line by line, every problem with line and field",
     "validating", &parse_words_and_run<&parse_validate_command, &run_validate>},
    {"plugins", "List the built-in types (endpoints, dataset types, ...) by AIPerf plugin category",
     "listing", &run_plugins_command},
    {"service", "AIPerf's internal service processes: inferperf has none (says what to use)",
     "starting", &run_service_command},
    {"speed-bench-report", "AIPerf's SPEED-Bench report: not supported (says why)", "reporting",
     &run_speed_bench_report_command},
    {"config", "YAML configuration files: init (templates), expand (sweep variations), validate",
     "reading the configuration", &run_config_command},
};

// analyze, analyze-trace and words that name no command go through config's parser (which shares
// the raw-word scan with profile); its root lists every command of the table.
int run_parsed_by_config(const std::vector<std::string>& args) {
  std::vector<config::CommandSummary> listed;
  for (const Command& c : kCommands) listed.push_back({c.name, c.summary});
  auto outcome = config::parse_command_line(args, listed);
  using Action = config::CliOutcome::Action;
  switch (outcome.action) {
    case Action::kExit:
      return print_instead_of_running(outcome.exit_code, outcome.message);
    case Action::kAnalyze:
      return run_analyze(outcome.analyze_dir);
    case Action::kAnalyzeTrace:
      return run_analyze_trace(outcome.analyze_trace);
    case Action::kProfile:  // "profile" has its own row; kept for a parser that routes to it
      if (const std::string e = goodput_problem(outcome.config); !e.empty()) {
        return print_instead_of_running(kExitBadConfig, "error: " + e + "\n");
      }
      return run_profile(std::move(outcome.config));
  }
  return kExitRunFailed;
}

// The phase before a command is known (the terminate handler's first one too).
constexpr const char* kNoCommandPhase = "starting";

}  // namespace

std::span<const Command> commands() {
  return kCommands;
}

int run_command_line(const std::vector<std::string>& args) {
  // AIPerf's root option, not a command (it is not in the table, so no command gets its name).
  if (!args.empty() && args.front() == "--install-completion")
    return run_guarded("installing completion", &run_install_completion, args);
  for (const Command& c : kCommands) {
    if (!args.empty() && args.front() == c.name) return run_guarded(c.phase, c.run, args);
  }
  return run_guarded(kNoCommandPhase, &run_parsed_by_config, args);
}

}  // namespace inferperf::app
