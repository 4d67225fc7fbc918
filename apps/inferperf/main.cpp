// inferperf: parse the command line, run the requested command, return its exit code.
#include <iostream>
#include <string>
#include <vector>

#include "app/analyze.hpp"
#include "app/analyze_trace.hpp"
#include "app/merge.hpp"
#include "app/probe_command.hpp"
#include "app/profile_command.hpp"
#include "app/runner.hpp"
#include "app/tokenize_command.hpp"
#include "config/cli.hpp"
#include "core/secrets.hpp"
#include "plot/plot.hpp"
#include "plot/plot_cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "plot") {
    auto plot = inferperf::plot::parse_plot_command({args.begin() + 1, args.end()});
    if (!plot.run) {
      (plot.exit_code == 0 ? std::cout : std::cerr) << plot.message;
      return plot.exit_code;
    }
    return inferperf::plot::run_plot(plot.options);
  }
  if (!args.empty() && args[0] == "merge") {
    auto merge = inferperf::app::parse_merge_command({args.begin() + 1, args.end()});
    if (!merge.run) {
      (merge.exit_code == 0 ? std::cout : std::cerr) << merge.message;
      return merge.exit_code;
    }
    try {
      return inferperf::app::run_merge(merge.options);
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 1;
    }
  }
  if (!args.empty() && args[0] == "tokenize") {
    auto tokenize = inferperf::app::parse_tokenize_command({args.begin() + 1, args.end()});
    if (!tokenize.run) {
      (tokenize.exit_code == 0 ? std::cout : std::cerr) << tokenize.message;
      return tokenize.exit_code;
    }
    try {
      return inferperf::app::run_tokenize(tokenize.options);
    } catch (const std::exception& e) {
      std::cerr << "error: " << inferperf::core::redact_urls(e.what()) << "\n";
      return 1;
    }
  }
  if (!args.empty() && args[0] == "probe") {
    auto probe = inferperf::app::parse_probe_command({args.begin() + 1, args.end()});
    if (!probe.run) {
      (probe.exit_code == 0 ? std::cout : std::cerr) << probe.message;
      return probe.exit_code;
    }
    try {
      return inferperf::app::run_probe(probe.options);
    } catch (const std::exception& e) {
      std::cerr << "error: " << inferperf::core::redact_urls(e.what()) << "\n";
      return 1;
    }
  }
  if (!args.empty() && args.front() == "profile") {
    try {
      return inferperf::app::run_profile_command(args);
    } catch (const std::exception& e) {
      std::cerr << "error: " << inferperf::core::redact_urls(e.what()) << "\n";
      return 1;
    }
  }
  auto outcome = inferperf::config::parse_command_line(args);
  if (outcome.action == inferperf::config::CliOutcome::Action::kExit) {
    // An error may quote a URL the user gave; its credentials are not repeated.
    (outcome.exit_code == 0 ? std::cout : std::cerr)
        << (outcome.exit_code == 0 ? outcome.message
                                   : inferperf::core::redact_urls(outcome.message));
    return outcome.exit_code;
  }
  try {
    if (outcome.action == inferperf::config::CliOutcome::Action::kAnalyze)
      return inferperf::app::run_analyze(outcome.analyze_dir);
    if (outcome.action == inferperf::config::CliOutcome::Action::kAnalyzeTrace)
      return inferperf::app::run_analyze_trace(outcome.analyze_trace);
    return inferperf::app::run_profile(std::move(outcome.config));
  } catch (const std::exception& e) {
    std::cerr << "error: " << inferperf::core::redact_urls(e.what()) << "\n";
    return 1;
  }
}
