// Command-line parsing: the input is the argument list, one argument per line (a NUL also ends
// one). Whatever the arguments, parsing returns an outcome (never exits, never throws), and a
// refused command line always says why.
#include <cstdint>
#include <string>
#include <vector>

#include "config/cli.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  std::vector<std::string> args;
  while (!in.empty()) {
    std::string arg(in.until('\n'));
    // An argv string ends at its first NUL: what follows it is another argument.
    for (std::size_t nul; (nul = arg.find('\0')) != std::string::npos;) {
      args.push_back(arg.substr(0, nul));
      arg.erase(0, nul + 1);
    }
    args.push_back(std::move(arg));
  }
  using inferperf::config::CliOutcome;
  const CliOutcome outcome = inferperf::config::parse_command_line(args);
  if (outcome.action == CliOutcome::Action::kExit) {
    FUZZ_CHECK(outcome.exit_code == 0 || outcome.exit_code == 2);
    FUZZ_CHECK(outcome.exit_code == 0 || !outcome.message.empty());
  } else {
    FUZZ_CHECK(outcome.exit_code == 0);
  }
  (void)inferperf::config::build_cli_command(args);
  return 0;
}
