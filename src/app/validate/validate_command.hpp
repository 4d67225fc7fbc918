// `inferperf validate --target mooncake-trace --input PATH` (AIPerf 0.11's `validate`): checks a
// trace file line by line (mooncake_check.hpp) and lists every problem with its line and field.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace inferperf::app {

struct ValidateOptions {
  std::string target;  // "mooncake-trace", the only one
  std::string input;
  int block_size = 512;  // --isl-block-size: tokens per hash id
};

struct ValidateCommand {
  bool run = false;  // false: print `message` (stdout when exit_code is 0), exit with `exit_code`
  int exit_code = 0;
  std::string message;
  ValidateOptions options;
};
ValidateCommand parse_validate_command(const std::vector<std::string>& args);

// Exit codes: 0 valid; 1 the file has problems (listed on `out`); 2 bad command line or a file
// that cannot be read (missing, a folder, empty, not UTF-8).
int validate_trace_file(const ValidateOptions& o, std::ostream& out, std::ostream& err);
int run_validate(const ValidateOptions& o);

}  // namespace inferperf::app
