// `inferperf --install-completion [--shell bash|zsh] [-o PATH]`, AIPerf's root option: writes a
// shell completion script for inferperf (docs/cli.md, "Shell completion").
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::app {

// The bash completion script: command names for the first word; for a word starting with '-',
// the options `inferperf COMMAND --help` lists (asked when completing, so the script never goes
// stale); file names otherwise. zsh loads the same script through bashcompinit.
std::string completion_script(const std::vector<std::string_view>& commands, bool zsh);

// `args` start with "--install-completion". Exit code: 0 written (to -o -: printed), 2 a bad
// command line or an unsupported shell, 1 the file could not be written.
int run_install_completion(const std::vector<std::string>& args);

}  // namespace inferperf::app
