// `inferperf tokenize --tokenizer T [TEXT]`: counts (or lists) the tokens of a text with the
// tokenizer `inferperf profile` would load for the same --tokenizer, so a user can check ISL/OSL
// figures by hand. Counting is AIPerf's: no special tokens are added.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace inferperf::app {

// A text larger than this is refused (exit 2) rather than read whole into memory.
inline constexpr std::size_t kTokenizeMaxInputBytes = std::size_t{256} << 20;

struct TokenizeOptions {
  std::string text;                 // TEXT; used only when has_text
  bool has_text = false;            // TEXT was given ("-" means stdin, as no TEXT does)
  std::string file;                 // --file / --input-file
  std::string tokenizer;            // --tokenizer; empty: the first -m name
  std::vector<std::string> models;  // -m / --model, for the default tokenizer name as profile
  std::string revision = "main";    // --tokenizer-revision
  bool ids = false;                 // --ids
  bool pieces = false;              // --pieces
  bool json = false;                // --json
};

struct TokenizeCommand {
  bool run = false;  // false: print `message` (stdout when exit_code is 0), exit with `exit_code`
  int exit_code = 0;
  std::string message;
  TokenizeOptions options;
};
TokenizeCommand parse_tokenize_command(const std::vector<std::string>& args);

// The text to tokenize, byte for byte (no newline is stripped): from TEXT, --file, or `in`.
// Refused: an unreadable file, a folder, more than `max_bytes`.
core::Result<std::string> read_tokenize_input(const TokenizeOptions& o, std::istream& in,
                                              std::size_t max_bytes = kTokenizeMaxInputBytes);

// The whole command. Exit codes: 0, 2 (bad input, no tokenizer found or loadable).
int run_tokenize(const TokenizeOptions& o);

}  // namespace inferperf::app
