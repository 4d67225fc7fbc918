// inferperf: parse the command line, run the requested command, return its exit code.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "app/analyze.hpp"
#include "app/analyze_trace.hpp"
#include "app/exit_codes.hpp"
#include "app/merge.hpp"
#include "app/probe_command.hpp"
#include "app/profile_command.hpp"
#include "app/runner.hpp"
#include "app/tokenize_command.hpp"
#include "config/cli.hpp"
#include "core/secrets.hpp"
#include "plot/plot.hpp"
#include "plot/plot_cli.hpp"

namespace {

// What the command is doing, for the last-resort out-of-memory message.
const char* g_phase = "starting";
// The runtime's own handler (libstdc++ prints the exception's type and what() and aborts).
std::terminate_handler g_default_terminate = nullptr;

constexpr const char* kOomAdvice =
    "; lower the dataset (--isl, --num-dataset-entries, a smaller --input-file) or the load, or "
    "set --max-dataset-memory below what this machine can spare\n";

// An exception that escaped a thread ends the process here. Out of memory gets a clear message
// (written without allocating) and exit 1 instead of "terminate called ..." and an abort; any
// other escape goes to the runtime's handler: a visible crash with a core dump, as before.
[[noreturn]] void on_terminate() {
  bool oom = false;
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      oom = true;
    } catch (...) {
    }
  }
  if (!oom) {
    if (g_default_terminate) g_default_terminate();
    std::abort();
  }
  std::fputs("error: out of memory while ", stderr);
  std::fputs(g_phase, stderr);
  std::fputs(
      " (if a run had started, the records measured so far are in its artifact folder: "
      "'inferperf analyze <folder>' exports them)",
      stderr);
  std::fputs(kOomAdvice, stderr);
  std::_Exit(inferperf::app::kExitRunFailed);
}

// Runs a command: an exception becomes one line on stderr and exit 1, std::bad_alloc included.
template <typename F>
int guarded(const char* phase, F&& run) {
  g_phase = phase;
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::fputs("error: out of memory while ", stderr);
    std::fputs(phase, stderr);
    std::fputs(kOomAdvice, stderr);
  } catch (const std::exception& e) {
    std::cerr << "error: " << inferperf::core::redact_urls(e.what()) << "\n";
  }
  return inferperf::app::kExitRunFailed;
}

}  // namespace

int main(int argc, char** argv) {
  g_default_terminate = std::set_terminate(on_terminate);
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
    return guarded("merging", [&] { return inferperf::app::run_merge(merge.options); });
  }
  if (!args.empty() && args[0] == "tokenize") {
    auto tokenize = inferperf::app::parse_tokenize_command({args.begin() + 1, args.end()});
    if (!tokenize.run) {
      (tokenize.exit_code == 0 ? std::cout : std::cerr) << tokenize.message;
      return tokenize.exit_code;
    }
    return guarded("tokenizing", [&] { return inferperf::app::run_tokenize(tokenize.options); });
  }
  if (!args.empty() && args[0] == "probe") {
    auto probe = inferperf::app::parse_probe_command({args.begin() + 1, args.end()});
    if (!probe.run) {
      (probe.exit_code == 0 ? std::cout : std::cerr) << probe.message;
      return probe.exit_code;
    }
    return guarded("probing", [&] { return inferperf::app::run_probe(probe.options); });
  }
  if (!args.empty() && args.front() == "profile") {
    return guarded("profiling", [&] { return inferperf::app::run_profile_command(args); });
  }
  auto outcome = inferperf::config::parse_command_line(args);
  if (outcome.action == inferperf::config::CliOutcome::Action::kExit) {
    // An error may quote a URL the user gave; its credentials are not repeated.
    (outcome.exit_code == 0 ? std::cout : std::cerr)
        << (outcome.exit_code == 0 ? outcome.message
                                   : inferperf::core::redact_urls(outcome.message));
    return outcome.exit_code;
  }
  using Action = inferperf::config::CliOutcome::Action;
  if (outcome.action == Action::kAnalyze)
    return guarded("analyzing", [&] { return inferperf::app::run_analyze(outcome.analyze_dir); });
  if (outcome.action == Action::kAnalyzeTrace) {
    return guarded("analyzing the trace",
                   [&] { return inferperf::app::run_analyze_trace(outcome.analyze_trace); });
  }
  return guarded("profiling",
                 [&] { return inferperf::app::run_profile(std::move(outcome.config)); });
}
