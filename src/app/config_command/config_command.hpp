// `inferperf config init|expand|validate`: the YAML configuration files of `profile -f`
// (docs/config.md). init prints or writes a bundled template, expand lists a file's sweep
// variations without running them, validate runs the whole load pipeline without sending.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace inferperf::app {

// `args` start with "config". Exit codes: 0; 1 for a file that does not validate (AIPerf 0.11's
// code for `config validate`) or cannot be expanded; 2 for a bad command line.
int run_config_command(const std::vector<std::string>& args);

// `config init` without the I/O: the template `name` with the model and URL replaced; nullopt
// when no template has that name.
std::optional<std::string> config_template_text(const std::string& name, const std::string& model,
                                                const std::string& url);

// `config expand`: what would be printed for the file text, or an error (set `error`).
struct ConfigExpandOptions {
  bool full = false;
  std::optional<std::size_t> index;
  std::string format = "text";  // text | yaml | json
};
std::optional<std::string> expand_config_text(const std::string& path, const ConfigExpandOptions& o,
                                              std::string& error);

}  // namespace inferperf::app
