#include "app/profile/profile_command.hpp"

#include <filesystem>
#include <iostream>

#include "app/exit_codes.hpp"
#include "app/profile/orchestrator.hpp"
#include "app/profile/phase_plans.hpp"
#include "app/profile/runner.hpp"
#include "app/results.hpp"
#include "app/subcommand_words.hpp"
#include "config/cli.hpp"
#include "config/yaml_config.hpp"
#include "core/secrets.hpp"
#include "sweep/sweep_args.hpp"
#include "sweep/trial_seed.hpp"

namespace inferperf::app {

namespace {

// What one run would do, from the configuration alone: no file, folder or server is touched (a
// dataset file, the tokenizer and the model list are checked when the run starts).
void print_dry_run(const config::RunConfig& c) {
  std::cout << "dry run: the command line is valid; nothing was sent\n" << c.cli_command << "\n";
  if (c.load.warmup_enabled) std::cout << "warmup: " << describe(warmup_plan(c)) << "\n";
  std::cout << "profiling: " << describe(profiling_plan(c, 0.0)) << "\n";
  std::filesystem::path dir = c.output.artifact_dir;
  if (!c.output.artifact_dir_explicit) {
    dir /= c.endpoint.model_names.empty() ? std::string("<model from the server>-...")
                                          : artifact_leaf(c);
  }
  if (c.shard.sharded()) dir /= "shard-" + std::to_string(c.shard.index);
  std::cout << "artifact folder: " << dir.string() << "\n";
  if (c.shard.start_at) std::cout << "start at: " << std::fixed << *c.shard.start_at << "\n";
  for (const auto& w : c.warnings) std::cout << "warning: " << w << "\n";
}

}  // namespace

int run_profile_command(const std::vector<std::string>& typed) {
  // -f/--config FILE becomes the file's flags here, so its sweep reaches the orchestrator.
  const config::ConfigFileWords file = config::expand_config_file(typed);
  if (!file.errors.empty()) return print_instead_of_running(kExitBadConfig, file.error_text());
  for (const auto& w : file.translation.warnings) std::cerr << "warning: " << w << "\n";
  const std::vector<std::string>& args = file.words;
  const sweep::SweepArgs sw = sweep::extract_sweep_args(args);
  if (!sw.errors.empty()) {
    for (const auto& e : sw.errors)
      std::cerr << file.point_at_file("error: " + core::redact_urls(e) + "\n");
    std::cerr << "Run 'inferperf profile --help' for the options.\n";
    return kExitBadConfig;
  }
  if (sw.orchestrated()) return run_orchestrated(sw, typed);

  sweep::RunArgs one;
  one.artifact_dir = sw.options.artifact_dir.value_or("");
  one.random_seed = sweep::single_run_seed(sw.options);
  if (sw.options.cache_salt_per_run) one.cache_salt = sweep::random_cache_salt();
  auto outcome = config::parse_command_line(sweep::child_args(sw, one));
  if (outcome.action != config::CliOutcome::Action::kProfile)
    return print_instead_of_running(outcome.exit_code, file.point_at_file(outcome.message));
  if (const std::string e = goodput_problem(outcome.config); !e.empty()) {
    std::cerr << "error: " << core::redact_urls(e) << "\n";
    return kExitBadConfig;
  }
  if (sw.options.cache_salt_per_run && cache_salt_given_twice(outcome.config)) {
    std::cerr << kCacheSaltTwice;
    return kExitBadConfig;
  }
  // The reproduction line is what the user typed, not the reordered words parsed above.
  outcome.config.cli_command = config::build_cli_command(typed);
  if (const std::string e = shard_problem(outcome.config); !e.empty()) {
    std::cerr << "error: " << e << "\n";
    return kExitBadConfig;
  }
  if (sw.options.dry_run) {
    print_dry_run(outcome.config);
    return kExitOk;
  }
  std::filesystem::path dir;
  const int rc = run_profile(std::move(outcome.config), &dir);
  if (sw.options.auto_plot && !dir.empty() && (rc == kExitOk || rc == kExitSignal) &&
      !auto_plot(dir) && sw.options.plot_required && rc == kExitOk) {
    return kExitRunFailed;  // --plot-required (AIPerf 0.11)
  }
  return rc;
}

}  // namespace inferperf::app
