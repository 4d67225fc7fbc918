// Command-line parsing. Two shapes of input:
// - text: the argument list, one argument per line (a NUL also ends one);
// - a first byte 0x01: pairs of bytes choosing an option (from cli_options(), the parser's own
//   list) and a value from a dictionary of hostile numbers, after "profile -m x"; this drives the
//   whole validator with random flag/value mixes.
// Whatever the arguments, parsing returns an outcome (never exits, never throws, never loops: run
// libFuzzer with -timeout=2; the harness also fails an input that takes over 10 s), a refused
// command line says why, and a numeric value outside its range is always refused by name.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/cli.hpp"
#include "config/numeric_ranges.hpp"
#include "fuzz_input.hpp"

namespace {

using inferperf::config::CliOutcome;

const std::vector<std::string> kHostileValues = {"nan",
                                                 "-nan",
                                                 "inf",
                                                 "-inf",
                                                 "infinity",
                                                 "0",
                                                 "-0",
                                                 "-1",
                                                 "1",
                                                 "0.5",
                                                 "1e300",
                                                 "1e-300",
                                                 "-1e300",
                                                 "5e-324",
                                                 "1.7976931348623157e308",
                                                 "9223372036854775807",
                                                 "9223372036854775808",
                                                 "18446744073709551616",
                                                 "99999999999999999999",
                                                 "2147483648",
                                                 "-2147483649",
                                                 "1000000000001",
                                                 "1e6",
                                                 "010",
                                                 "0x10",
                                                 "+5",
                                                 "1,2",
                                                 "",
                                                 " 1",
                                                 "1K",
                                                 "16E",
                                                 "1e7",
                                                 "10000001",
                                                 "0.0009",
                                                 "31536001",
                                                 "1e12",
                                                 "65537",
                                                 "3.5"};

struct Chosen {
  std::string spelled;
  std::string value;
  const inferperf::config::NumericRange* range = nullptr;
};

// "profile -m x" and the chosen pairs; every spelling of every option may come up.
std::vector<std::string> mixed_args(inferperf::fuzz::FuzzInput& in, std::vector<Chosen>& chosen) {
  static const std::vector<inferperf::config::CliOptionInfo> options = [] {
    std::vector<inferperf::config::CliOptionInfo> out;
    for (auto& o : inferperf::config::cli_options()) {
      if (o.subcommand == "profile" && o.name != "--help") out.push_back(o);
    }
    return out;
  }();
  std::vector<std::string> args = {"profile", "-m", "x"};
  while (!in.empty() && chosen.size() < 16) {
    const auto& o = options[in.byte() % options.size()];
    const std::uint8_t v = in.byte();
    Chosen c{o.names[v % o.names.size()], kHostileValues[v % kHostileValues.size()], nullptr};
    if (o.numeric) c.range = inferperf::config::find_numeric_range(o.name);
    args.push_back(c.spelled);
    args.push_back(c.value);
    chosen.push_back(std::move(c));
  }
  return args;
}

// A numeric value is refused by name exactly when it is outside its range. A configuration file
// (-f/--config) is read first, and a file that cannot be used ends the parse with its own error
// before the typed values are looked at; the exit code is still 2.
void check_numeric_choices(const CliOutcome& outcome, const std::vector<Chosen>& chosen) {
  for (const auto& c : chosen) {
    if ((c.spelled == "-f" || c.spelled == "--config") && outcome.exit_code == 2) return;
  }
  for (const auto& c : chosen) {
    if (!c.range) continue;
    const auto check = inferperf::config::check_numeric_value(*c.range, c.spelled, c.value);
    if (check.canonical) continue;
    FUZZ_CHECK(outcome.exit_code == 2);
    FUZZ_CHECK(outcome.message.find(c.spelled + " must be ") != std::string::npos);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto start = std::chrono::steady_clock::now();
  inferperf::fuzz::FuzzInput in(data, size);
  std::vector<std::string> args;
  std::vector<Chosen> chosen;
  if (size > 0 && data[0] == 0x01) {
    in.byte();
    args = mixed_args(in, chosen);
  } else {
    while (!in.empty()) {
      std::string arg(in.until('\n'));
      // An argv string ends at its first NUL: what follows it is another argument.
      for (std::size_t nul; (nul = arg.find('\0')) != std::string::npos;) {
        args.push_back(arg.substr(0, nul));
        arg.erase(0, nul + 1);
      }
      args.push_back(std::move(arg));
    }
  }
  const CliOutcome outcome = inferperf::config::parse_command_line(args);
  if (outcome.action == CliOutcome::Action::kExit) {
    FUZZ_CHECK(outcome.exit_code == 0 || outcome.exit_code == 2);
    FUZZ_CHECK(outcome.exit_code == 0 || !outcome.message.empty());
  } else {
    FUZZ_CHECK(outcome.exit_code == 0);
  }
  if (std::getenv("INFERPERF_FUZZ_DEBUG")) {
    for (const auto& a : args) std::fprintf(stderr, "[%s] ", a.c_str());
    std::fprintf(stderr, "\n%s\n", outcome.message.c_str());
  }
  check_numeric_choices(outcome, chosen);
  (void)inferperf::config::build_cli_command(args);
  FUZZ_CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  return 0;
}
