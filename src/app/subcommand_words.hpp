// The command-line parsing every `inferperf NAME` subcommand with its own options shares (merge,
// tokenize, probe): CLI11 over the words after NAME, the help, and one form of usage error; and
// how every command prints a parse that ends the program (help, version or usage error).
#pragma once
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inferperf::app {

// "inferperf NAME: WHAT\nRun 'inferperf NAME --help'.\n"
std::string usage_message(std::string_view name, std::string_view what);

// Parses `args` into `app`. nullopt: parsed, go on. Otherwise the exit code and the text to print:
// the help (0, stdout) or a usage error (2, stderr).
std::optional<std::pair<int, std::string>> parse_subcommand_words(
    CLI::App& app, const std::vector<std::string>& args, std::string_view name);

// A command line that ends before running: the help or version (exit code 0) on stdout, or the
// usage error on stderr, credentials in any URL it quotes redacted. Returns `exit_code`.
int print_instead_of_running(int exit_code, std::string_view message);

}  // namespace inferperf::app
