#include "app/profile_command.hpp"

#include <filesystem>
#include <iostream>

#include "app/exit_codes.hpp"
#include "app/orchestrator.hpp"
#include "app/runner.hpp"
#include "config/cli.hpp"
#include "core/secrets.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::app {

int run_profile_command(const std::vector<std::string>& args) {
  const sweep::SweepArgs sw = sweep::extract_sweep_args(args);
  if (!sw.errors.empty()) {
    for (const auto& e : sw.errors) std::cerr << "error: " << core::redact_urls(e) << "\n";
    std::cerr << "Run 'inferperf profile --help' for the options.\n";
    return kExitBadConfig;
  }
  if (sw.orchestrated()) return run_orchestrated(sw, args);

  sweep::RunArgs one;
  one.artifact_dir = sw.options.artifact_dir.value_or("");
  one.random_seed = sw.options.random_seed;
  if (sw.options.cache_salt_per_run) one.cache_salt = sweep::random_cache_salt();
  auto outcome = config::parse_command_line(sweep::child_args(sw, one));
  if (outcome.action != config::CliOutcome::Action::kProfile) {
    // An error may quote a URL the user gave; its credentials are not repeated.
    (outcome.exit_code == 0 ? std::cout : std::cerr)
        << (outcome.exit_code == 0 ? outcome.message : core::redact_urls(outcome.message));
    return outcome.exit_code;
  }
  if (sw.options.cache_salt_per_run && cache_salt_given_twice(outcome.config)) {
    std::cerr << kCacheSaltTwice;
    return kExitBadConfig;
  }
  // The reproduction line is what the user typed, not the reordered words parsed above.
  outcome.config.cli_command = config::build_cli_command(args);
  std::filesystem::path dir;
  const int rc = run_profile(std::move(outcome.config), &dir);
  if (sw.options.auto_plot && !dir.empty() && (rc == kExitOk || rc == kExitSignal)) auto_plot(dir);
  return rc;
}

}  // namespace inferperf::app
