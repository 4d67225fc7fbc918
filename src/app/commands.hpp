// The `inferperf` commands as one table: each row names a command, the line `inferperf --help`
// shows for it, what it is doing for the out-of-memory message, and the function that parses its
// words and runs it. Adding a command is adding a row.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::app {

struct Command {
  std::string_view name;     // the first word: `inferperf NAME ...`
  std::string_view summary;  // its line in `inferperf --help`
  const char* phase;         // "error: out of memory while PHASE"
  // Parses the program's arguments (starting with NAME), runs the command: the exit code. A
  // command line that ends before running is printed by print_instead_of_running.
  int (*run)(const std::vector<std::string>& args);
};

// Every command, in the order `inferperf --help` lists them.
std::span<const Command> commands();

// The program's arguments (after the program name) run: the command they name, inside the one
// guard (run_guarded); words that name no command (none, --help, --version, an unknown one) get
// the root help, the version or the usage error. Returns the exit code.
int run_command_line(const std::vector<std::string>& args);

}  // namespace inferperf::app
