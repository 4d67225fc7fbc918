#include "app/subcommand_words.hpp"

#include <iostream>

#include "app/exit_codes.hpp"
#include "core/secrets.hpp"

namespace inferperf::app {

std::string usage_message(std::string_view name, std::string_view what) {
  const std::string n(name);
  return "inferperf " + n + ": " + std::string(what) + "\nRun 'inferperf " + n + " --help'.\n";
}

std::optional<std::pair<int, std::string>> parse_subcommand_words(
    CLI::App& app, const std::vector<std::string>& args, std::string_view name) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses last to first
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return std::pair{kExitOk, app.help()};
  } catch (const CLI::ParseError& e) {
    return std::pair{kExitBadConfig, usage_message(name, e.what())};
  }
  return std::nullopt;
}

int print_instead_of_running(int exit_code, std::string_view message) {
  // An error may quote a URL the user gave; its credentials are not repeated.
  if (exit_code == kExitOk)
    std::cout << message;
  else
    std::cerr << core::redact_urls(message);
  return exit_code;
}

}  // namespace inferperf::app
